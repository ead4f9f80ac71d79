import type { MessageRecordedData } from '@gpt/contracts';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../deps';
import { availableCredits, type Balance } from '../data/balances.repository';
import { holdsRepository } from '../data/holds.repository';
import type { BillingDatabase } from '../data/schema';
import { usersRepository } from '../data/users.repository';
import { holdReference } from './holds';
import { changeBalance, ledgerIn, type BalanceChange, type Posting } from './ledger';
import { recoverPendingBonuses } from './referrals';

/** Takes `amount` from included credits first, then from bought credits. */
function charge(balance: Balance, amount: number): BalanceChange {
  const fromIncluded = Math.min(Math.max(balance.includedCredits, 0), amount);
  const fromCredits = amount - fromIncluded;
  const postings: Posting[] = [];
  if (fromIncluded > 0) postings.push({ bucket: 'included', amount: -fromIncluded });
  if (fromCredits > 0) postings.push({ bucket: 'credits', amount: -fromCredits });
  return { reason: 'message_charge', postings };
}

/**
 * Charges a recorded message once (reference `message:<id>`). A message the bot made under a hold
 * settles it in the same transaction: the charge is the real cost capped at the hold's amount (the
 * most the bot promised the call could cost) and at what the balance has beside other holds, so it
 * never goes below zero; an error message costs nothing and releases the hold. A message without a
 * hold (a bot outside this product) is charged in full even when that takes the balance below zero:
 * the model has already answered.
 */
export async function chargeMessage(
  trx: Kysely<BillingDatabase>,
  bus: BillingDeps['bus'],
  message: MessageRecordedData,
) {
  const userId = await usersRepository(trx).resolve(message.user_id);
  const reference = `message:${message.message_id}`;
  if (message.hold_id === null) {
    if (message.cost <= 0) return null;
    return changeBalance(trx, bus, userId, reference, (balance) => charge(balance, message.cost));
  }

  const ledger = ledgerIn(trx, bus);
  await ledger.lock([userId]);
  if (await ledger.applied(reference)) return null;
  const holds = holdsRepository(trx);
  const hold = await holds.find(message.hold_id);
  const ours = hold?.userId === userId ? hold : null;
  const outcome = message.cost > 0 ? 'settled' : 'released';
  const ended = ours !== null && (await holds.finish(ours.id, userId, outcome, message.message_id));
  if (message.cost <= 0) {
    if (!ended) return null;
    const released = await ledger.touch(userId, 'hold_released', holdReference(ours.id));
    await recoverPendingBonuses(trx, bus, userId, holdReference(ours.id));
    return released;
  }

  const balance = (await ledger.lock([userId])).get(userId) as Balance;
  const ceiling = Math.min(message.cost, ours?.amount ?? message.cost, Math.max(availableCredits(balance), 0));
  const charged = await ledger.post(balance, reference, charge(balance, ceiling));
  if (ended) await recoverPendingBonuses(trx, bus, userId, holdReference(ours.id));
  return charged;
}
