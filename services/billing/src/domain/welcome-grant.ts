import {
  DEFAULT_WELCOME_SETTINGS,
  parseWelcomeCredits,
  REFERRAL_SETTING_KEYS,
  WELCOME_CREDITS_KEY,
  type SettingChangedData,
} from '@gpt/contracts';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../deps';
import type { BillingDatabase } from '../data/schema';
import { settingsRepository } from '../data/settings.repository';
import { usersRepository } from '../data/users.repository';
import { changeBalance } from './ledger';

/** The settings billing keeps from chat-history's `setting.changed`: the welcome grant's and the referrals'. */
const PROJECTED_SETTINGS: readonly string[] = [WELCOME_CREDITS_KEY, ...REFERRAL_SETTING_KEYS];

/** Keeps a setting billing needs; an older change than the one kept is ignored. */
export async function rememberSetting(trx: Kysely<BillingDatabase>, change: SettingChangedData): Promise<void> {
  if (!PROJECTED_SETTINGS.includes(change.key)) return;
  await settingsRepository(trx).offer(change.key, change.value, change.version);
}

/**
 * The welcome credits a new person gets now: the `welcome_credits` setting as billing last heard
 * it; its seeded default before billing has heard anything; none when it was deleted or is unusable.
 */
async function welcomeCredits(trx: Kysely<BillingDatabase>): Promise<number> {
  const stored = await settingsRepository(trx).find(WELCOME_CREDITS_KEY);
  if (stored === null) return 0;
  return parseWelcomeCredits(stored ?? DEFAULT_WELCOME_SETTINGS.welcome_credits) ?? 0;
}

/**
 * A new person's one welcome grant (reason `welcome_grant`, reference `welcome:<user id>`, so a
 * replayed or repeated registration never grants twice); nothing while the setting is 0, nor for
 * an account already merged into another (its person's grant is the survivor's).
 */
export async function grantWelcomeCredits(
  trx: Kysely<BillingDatabase>,
  bus: BillingDeps['bus'],
  userId: number,
): Promise<void> {
  const amount = await welcomeCredits(trx);
  if (amount === 0 || (await usersRepository(trx).resolve(userId)) !== userId) return;
  await changeBalance(trx, bus, userId, `welcome:${userId}`, () => ({
    reason: 'welcome_grant',
    postings: [{ bucket: 'credits', amount }],
    welcomeCredits: amount,
  }));
}
