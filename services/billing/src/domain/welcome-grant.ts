import {
  DEFAULT_WELCOME_SETTINGS,
  parseWelcomeCredits,
  STAR_RATE_KEY,
  REFERRAL_SETTING_KEYS,
  WELCOME_CREDITS_KEY,
  WELCOME_DAILY_LIMIT_KEY,
  type SettingChangedData,
} from '@gpt/contracts';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../deps';
import type { BillingDatabase } from '../data/schema';
import { settingsRepository } from '../data/settings.repository';
import { ledgerEntriesRepository } from '../data/ledger-entries.repository';
import { usersRepository } from '../data/users.repository';
import { changeBalance } from './ledger';

/** The settings billing keeps from chat-history's `setting.changed`: the welcome grant's, the Stars rate, the referrals'. */
const PROJECTED_SETTINGS: readonly string[] = [
  WELCOME_CREDITS_KEY,
  WELCOME_DAILY_LIMIT_KEY,
  STAR_RATE_KEY,
  ...REFERRAL_SETTING_KEYS,
];

/** Keeps a setting billing needs; an older change than the one kept is ignored. */
export async function rememberSetting(trx: Kysely<BillingDatabase>, change: SettingChangedData): Promise<void> {
  if (!PROJECTED_SETTINGS.includes(change.key)) return;
  await settingsRepository(trx).offer(change.key, change.value, change.version);
}

/**
 * A welcome setting (`welcome_credits`, `welcome_daily_limit`) as billing last heard it; its seeded
 * default before billing has heard anything; 0 (no grant) when it was deleted or is unusable.
 */
async function welcomeSetting(
  trx: Kysely<BillingDatabase>,
  key: keyof typeof DEFAULT_WELCOME_SETTINGS,
): Promise<number> {
  const stored = await settingsRepository(trx).find(key);
  if (stored === null) return 0;
  return parseWelcomeCredits(stored ?? DEFAULT_WELCOME_SETTINGS[key]) ?? 0;
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
  const amount = await welcomeSetting(trx, WELCOME_CREDITS_KEY);
  if (amount === 0 || (await usersRepository(trx).resolve(userId)) !== userId) return;
  // The day's allowance; the balance row locked below orders grants of one user, this count all of them
  // closely enough (a grant or two past it under a burst, never a flood).
  const grantedToday = await ledgerEntriesRepository(trx).countSinceUtcMidnight('welcome_grant');
  if (grantedToday >= (await welcomeSetting(trx, WELCOME_DAILY_LIMIT_KEY))) return;
  await changeBalance(trx, bus, userId, `welcome:${userId}`, () => ({
    reason: 'welcome_grant',
    postings: [{ bucket: 'credits', amount }],
    welcomeCredits: amount,
  }));
}
