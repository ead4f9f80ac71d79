import type { BotHoldRequest, BotHoldResponse } from '@gpt/contracts';
import type { BillingDeps } from '../deps';
import { availableCredits } from '../data/balances.repository';
import { holdsRepository, type HoldOutcome } from '../data/holds.repository';
import { usersRepository } from '../data/users.repository';
import { ledgerIn } from './ledger';
import { billingErrors } from './errors';
import { knownUser } from './known-users';
import { recoverPendingBonuses } from './referrals';

const BATCH = 100;

export const holdReference = (holdId: string) => `hold:${holdId}`;

/**
 * Before a model call the bot holds the most the call can cost. The balance row is locked while
 * the available credits (both buckets less the active holds) are checked and the hold is written,
 * so concurrent holds never reserve more than the balance has.
 */
export async function placeHold(deps: BillingDeps, request: BotHoldRequest): Promise<BotHoldResponse> {
  const user = await knownUser(
    deps,
    request.user_id !== undefined ? { id: request.user_id } : { telegramId: request.telegram_id! },
  );
  if (!user) throw billingErrors.userNotFound();
  const holder = await usersRepository(deps.db).resolve(user.id);
  return deps.bus.transaction(async (trx) => {
    const ledger = ledgerIn(trx, deps.bus);
    const balance = (await ledger.lock([holder])).get(holder);
    if (!balance) throw new Error(`no balance for user ${holder}`);
    const available = availableCredits(balance);
    if (available < request.amount) throw billingErrors.insufficientCredits(available);
    const hold = await holdsRepository(trx).insert(holder, request.amount, deps.config.HOLD_TTL_SEC);
    await ledger.touch(holder, 'hold_placed', holdReference(hold.id));
    return {
      hold_id: hold.id,
      amount: hold.amount,
      available_credits: available - hold.amount,
      expires_at: hold.expiresAt.toISOString(),
    };
  });
}

/**
 * Ends an active hold under its balance's lock and publishes the balance without it. Answers
 * false when the hold had already ended. A merge may move the hold to another balance meanwhile:
 * then it is read again and ended there.
 */
async function endHold(deps: BillingDeps, holdId: string, outcome: HoldOutcome): Promise<boolean> {
  for (;;) {
    const hold = await holdsRepository(deps.db).find(holdId);
    if (!hold) throw billingErrors.holdNotFound();
    if (hold.status !== 'active') return false;
    const ended = await deps.bus.transaction(async (trx) => {
      const ledger = ledgerIn(trx, deps.bus);
      await ledger.lock([hold.userId]);
      if (!(await holdsRepository(trx).finish(hold.id, hold.userId, outcome))) return false;
      await ledger.touch(hold.userId, 'hold_released', holdReference(hold.id));
      await recoverPendingBonuses(trx, deps.bus, hold.userId, holdReference(hold.id));
      return true;
    });
    if (ended) return true;
  }
}

/** The bot did not make the call (or it failed before recording): the credits are available again. */
export async function releaseHold(deps: BillingDeps, holdId: string): Promise<void> {
  await endHold(deps, holdId, 'released');
}

/**
 * The expiry job: active holds past `expires_at` (already not counted) are marked expired, each
 * with a new balance snapshot. Answers how many.
 */
export async function expireHolds(deps: BillingDeps, now = new Date()): Promise<number> {
  let expired = 0;
  for (;;) {
    const lapsed = await holdsRepository(deps.db).lapsed(now, BATCH);
    for (const hold of lapsed) if (await endHold(deps, hold.id, 'expired')) expired++;
    if (lapsed.length < BATCH) return expired;
  }
}
