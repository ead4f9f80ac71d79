import type { Kysely } from 'kysely';
import type { AuthDatabase } from '../data/schema';
import { type User, usersRepository } from '../data/users.repository';

/**
 * The inviter a new account is attached to: the owner of the referral code it arrived with, or
 * nobody for no code or an unknown one. Only ever asked when the account is created, so the
 * inviter is fixed at first contact.
 */
export async function inviterOf(trx: Kysely<AuthDatabase>, code: string | null): Promise<number | null> {
  if (code === null) return null;
  return (await usersRepository(trx).findIdByReferralCode(code)) ?? null;
}

/**
 * Who invited the person once a Telegram-only account merges into a web account: the web
 * account's inviter, else the Telegram one's — unless that inviter is one of the two accounts
 * themselves (one person inviting themselves through their other account): then nobody.
 */
export function mergedInviter(web: User, telegram: User | undefined): number | null {
  const inviter = web.referredBy ?? telegram?.referredBy ?? null;
  return inviter === web.id || inviter === telegram?.id ? null : inviter;
}
