import {
  BOT_REFERRAL_PREFIX,
  DEFAULT_REFERRAL_SETTINGS,
  parseReferralSetting,
  type AdminReferralStats,
  type PaymentSucceededData,
  type ReferralRewardedData,
  type ReferralSettingKey,
  type ReferralSummary,
} from '@gpt/contracts';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../deps';
import { availableCredits, type Balance } from '../data/balances.repository';
import { referralsRepository } from '../data/referrals.repository';
import type { BillingDatabase } from '../data/schema';
import { settingsRepository } from '../data/settings.repository';
import { usersRepository } from '../data/users.repository';
import { billingErrors } from './errors';
import { knownUser } from './known-users';
import { ledgerIn } from './ledger';

type Db = Kysely<BillingDatabase>;
type Bus = BillingDeps['bus'];

export const REFERRAL_BONUS_NOTE = 'Бонус за друга';
const REFERRAL_REVOKED_NOTE = 'Возврат бонуса за друга';

/** A referral setting as billing last heard it; its seeded default before that; 0 when deleted or unusable. */
async function referralSetting(db: Db, key: ReferralSettingKey): Promise<number> {
  const stored = await settingsRepository(db).find(key);
  if (stored === null) return 0;
  return parseReferralSetting(key, stored ?? DEFAULT_REFERRAL_SETTINGS[key]) ?? 0;
}

/** `percent` of `credits`, rounded down: bonuses are whole credits. */
export const bonusOf = (credits: number, percent: number) => Math.floor((credits * percent) / 100);

/**
 * A friend's payment succeeded: their inviter gets `referral_percent` of the credits it bought,
 * at most up to `referral_max_credits_per_friend` from this friend in all, as a ledger entry
 * «Бонус за друга» under `referral:<payment id>`. Once per payment (a replay finds its reward
 * recorded); nothing for a person without an inviter, nor for one invited by themselves (their
 * other, since linked, account). Answers what the bot should tell the inviter, or null.
 */
export async function rewardReferrer(
  trx: Db,
  bus: Bus,
  payment: Pick<PaymentSucceededData, 'payment_id' | 'user_id' | 'credits_amount'>,
): Promise<ReferralRewardedData | null> {
  const users = usersRepository(trx);
  const friend = await users.resolve(payment.user_id);
  const inviter = (await users.find(friend))?.referredBy ?? null;
  if (inviter === null) return null;
  const referrer = await users.resolve(inviter);
  if (referrer === friend || (await users.find(referrer))?.deleted !== false) return null;

  const ledger = ledgerIn(trx, bus);
  // The inviter's balance lock also serializes this friend's bonuses, so the cap holds for concurrent payments.
  const balance = (await ledger.lock([referrer])).get(referrer);
  if (!balance) return null;
  const rewards = referralsRepository(trx);
  const cap = await referralSetting(trx, 'referral_max_credits_per_friend');
  const room = Math.max(0, cap - (await rewards.earnedFrom(referrer, friend)));
  const credits = Math.min(bonusOf(payment.credits_amount, await referralSetting(trx, 'referral_percent')), room);
  const paymentId = payment.payment_id;
  if (!(await rewards.record({ paymentId, referrerId: referrer, friendId: friend, credits }))) return null;
  if (credits === 0) return null;
  await ledger.post(balance, `referral:${paymentId}`, {
    reason: 'referral_bonus',
    description: REFERRAL_BONUS_NOTE,
    postings: [{ bucket: 'credits', amount: credits }],
  });
  const rewarded = {
    referrer_id: referrer,
    friend_id: friend,
    payment_id: paymentId,
    credits,
    rewarded_at: new Date().toISOString(),
  };
  await bus.publish(trx, 'referral.rewarded', rewarded);
  return rewarded;
}

/** What of a locked balance's bought credits can be taken now: neither spent nor held. */
const takeable = (balance: Balance) => Math.max(0, Math.min(balance.credits, availableCredits(balance)));

/**
 * A refunded payment takes its bonus back from the inviter, but never below zero (docs/money.md,
 * Referral bonuses): what they have free is taken now; what their holds keep for model calls under way
 * is pending, taken as those holds end (`recoverPendingBonuses`); only what they had already spent is
 * lost, never owed. Once per payment.
 */
export async function revokeReferralBonus(trx: Db, bus: Bus, paymentId: string): Promise<void> {
  const rewards = referralsRepository(trx);
  const reward = await rewards.lockOpen(paymentId);
  if (!reward) return;
  const ledger = ledgerIn(trx, bus);
  const holder = await usersRepository(trx).resolve(reward.referrerId);
  const balance = (await ledger.lock([holder])).get(holder);
  const taken = balance ? Math.min(reward.credits, takeable(balance)) : 0;
  // Bought credits that exist but are held: they come back when the holds end, unless the calls spend them.
  const pending = balance ? Math.min(reward.credits - taken, Math.max(0, balance.credits - taken)) : 0;
  if (balance && taken > 0) {
    await ledger.post(balance, `referral-refund:${paymentId}`, {
      reason: 'referral_revoked',
      description: REFERRAL_REVOKED_NOTE,
      postings: [{ bucket: 'credits', amount: -taken }],
    });
  }
  await rewards.markRevoked(paymentId, taken, reward.credits - taken - pending, pending);
}

/**
 * A hold of `holder` ended (released, expired or charged; the balance is locked by the caller): the
 * pending take-backs of refunded friends' bonuses take what it freed, oldest first, under
 * `referral-refund:<payment id>:<hold reference>`. Once no hold is left, what is still pending was spent
 * by those calls and is lost.
 */
export async function recoverPendingBonuses(trx: Db, bus: Bus, holder: number, holdReference: string): Promise<void> {
  const rewards = referralsRepository(trx);
  const pending = await rewards.lockPending(holder);
  if (pending.length === 0) return;
  const ledger = ledgerIn(trx, bus);
  let balance = (await ledger.lock([holder])).get(holder);
  if (!balance) return;
  for (const reward of pending) {
    const taken = Math.min(reward.pending, takeable(balance));
    if (taken > 0) {
      await ledger.post(balance, `referral-refund:${reward.paymentId}:${holdReference}`, {
        reason: 'referral_revoked',
        description: REFERRAL_REVOKED_NOTE,
        postings: [{ bucket: 'credits', amount: -taken }],
      });
      balance = (await ledger.lock([holder])).get(holder)!;
    }
    const lost = balance.heldCredits === 0 ? reward.pending - taken : 0;
    await rewards.settlePending(reward.paymentId, taken, lost);
  }
}

/** Two accounts just linked are one person: bonuses one paid the other were self-referral, taken back. */
export async function revokeSelfReferrals(trx: Db, bus: Bus, survivorId: number, mergedId: number): Promise<void> {
  for (const paymentId of await referralsRepository(trx).openBetween(survivorId, mergedId)) {
    await revokeReferralBonus(trx, bus, paymentId);
  }
}

/**
 * A person's code, links and what they brought; `userId` may be a merged-away account (its survivor
 * answers). A person signed up a moment ago, whose user.registered has not reached billing yet, is
 * read through from auth with their own `authorization`.
 */
export async function referralSummary(
  deps: BillingDeps,
  userId: number,
  authorization?: string,
): Promise<ReferralSummary> {
  const holder = await usersRepository(deps.db).resolve(userId);
  const code = (await knownUser(deps, { id: holder, authorization }))?.referralCode;
  if (!code) throw billingErrors.userNotReady();
  const figures = await referralsRepository(deps.db).summary(holder);
  return {
    referral_code: code,
    site_link: `${deps.config.SITE_URL}/?ref=${code}`,
    bot_start_payload: `${BOT_REFERRAL_PREFIX}${code}`,
    invited: figures.invited,
    paying: figures.paying,
    credits_earned: figures.earned,
    percent: await referralSetting(deps.db, 'referral_percent'),
    max_credits_per_friend: await referralSetting(deps.db, 'referral_max_credits_per_friend'),
  };
}

/** The bot's `/ref`: the same for a Telegram user. */
export async function botReferralSummary(deps: BillingDeps, telegramId: number): Promise<ReferralSummary> {
  const user = await knownUser(deps, { telegramId });
  if (!user) throw billingErrors.userNotFound();
  return referralSummary(deps, user.id);
}

/** The dashboard tile: this calendar month (UTC). */
export async function referralStats(deps: BillingDeps, now = new Date()): Promise<AdminReferralStats> {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const stats = await referralsRepository(deps.db).statsSince(monthStart);
  return {
    month_start: monthStart.toISOString(),
    invited: stats.invited,
    paying: stats.paying,
    credits_paid: stats.credits,
  };
}
