import {
  DEFAULT_WELCOME_SETTINGS,
  parseWelcomeCredits,
  STAR_RATE_KEY,
  REFERRAL_SETTING_KEYS,
  DEFAULT_SUBSCRIPTION_SETTINGS,
  WELCOME_CREDITS_KEY,
  WELCOME_DAILY_LIMIT_KEY,
  WELCOME_PER_ADDRESS_DAILY_KEY,
  type SettingChangedData,
  type UserConfirmedData,
} from '@gpt/contracts';
import { addressBlock } from '@gpt/kit';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../deps';
import type { BillingDatabase } from '../data/schema';
import { settingsRepository } from '../data/settings.repository';
import { ledgerEntriesRepository } from '../data/ledger-entries.repository';
import { usersRepository } from '../data/users.repository';
import { welcomeGrantsRepository } from '../data/welcome-grants.repository';
import { changeBalance, ledgerIn } from './ledger';

/** The settings billing keeps from chat-history's `setting.changed`: the welcome grant's, the Stars rate, the referrals', the renewals'. */
const PROJECTED_SETTINGS: readonly string[] = [
  WELCOME_CREDITS_KEY,
  WELCOME_DAILY_LIMIT_KEY,
  WELCOME_PER_ADDRESS_DAILY_KEY,
  STAR_RATE_KEY,
  ...REFERRAL_SETTING_KEYS,
  ...Object.keys(DEFAULT_SUBSCRIPTION_SETTINGS),
];

/** Keeps a setting billing needs; an older change than the one kept is ignored. */
export async function rememberSetting(trx: Kysely<BillingDatabase>, change: SettingChangedData): Promise<void> {
  if (!PROJECTED_SETTINGS.includes(change.key)) return;
  await settingsRepository(trx).offer(change.key, change.value, change.version);
}

/**
 * A welcome setting (`welcome_credits`, `welcome_daily_limit`, `welcome_per_address_daily`) as billing last heard it; its seeded
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
 * A confirmed person's one welcome grant (reason `welcome_grant`, reference `welcome:<user id>` — for a
 * bot user `welcome:telegram:<telegram id>`, see welcomeBotUser — so a replayed or repeated confirmation
 * never grants twice; docs/product.md, Welcome credits). Nothing
 * while the setting is 0, for an account already merged into another (its person's grant is the
 * survivor's) or a balance that holds a grant already (merged in from the person's bot account);
 * nothing past the day's allowance (`welcome_daily_limit`), nor past `welcome_per_address_daily`
 * grants to accounts that signed up from the same address (an IPv6 address counts by its /64; bot
 * users have none).
 */
export async function grantWelcomeCredits(
  trx: Kysely<BillingDatabase>,
  bus: BillingDeps['bus'],
  confirmed: Pick<UserConfirmedData, 'user_id' | 'ip'>,
  reference = `welcome:${confirmed.user_id}`,
): Promise<void> {
  const userId = confirmed.user_id;
  const amount = await welcomeSetting(trx, WELCOME_CREDITS_KEY);
  if (amount === 0 || (await usersRepository(trx).resolve(userId)) !== userId) return;
  const grants = welcomeGrantsRepository(trx);
  const address = confirmed.ip ? addressBlock(confirmed.ip) : null;
  if (address) {
    // Grants of one address are counted one after another: its daily cap holds exactly.
    await grants.lockAddress(address);
    if ((await grants.countFromAddressToday(address)) >= (await welcomeSetting(trx, WELCOME_PER_ADDRESS_DAILY_KEY))) {
      return;
    }
  }
  // The day's allowance; the balance row locked below orders grants of one user, this count all of them
  // closely enough (a grant or two past it under a burst, never a flood).
  const grantedToday = await ledgerEntriesRepository(trx).countSinceUtcMidnight('welcome_grant');
  if (grantedToday >= (await welcomeSetting(trx, WELCOME_DAILY_LIMIT_KEY))) return;
  const granted = await changeBalance(trx, bus, userId, reference, (balance) =>
    balance.welcomeCredits > 0
      ? null
      : { reason: 'welcome_grant', postings: [{ bucket: 'credits', amount }], welcomeCredits: amount },
  );
  if (granted) await grants.record(userId, address);
}

/**
 * A bot user's balance with their welcome grant: the /start that registered them confirmed them. Run on
 * user.registered and on the bot's first call read through from auth, whichever comes first. The grant
 * belongs to the Telegram person (`welcome:telegram:<telegram id>`): the new Telegram-only account that
 * follows an unlinking (docs/money.md, Linking) finds it taken and gets none.
 */
export async function welcomeBotUser(
  trx: Kysely<BillingDatabase>,
  bus: BillingDeps['bus'],
  user: { userId: number; telegramId: number | null },
): Promise<void> {
  await ledgerIn(trx, bus).ensure(user.userId);
  const reference = user.telegramId === null ? undefined : `welcome:telegram:${user.telegramId}`;
  await grantWelcomeCredits(trx, bus, { user_id: user.userId, ip: null }, reference);
}
