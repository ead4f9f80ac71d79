import type { MessageRecordedData } from '@gpt/contracts';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../app';
import type { BillingDatabase } from '../data/schema';
import { usersRepository } from '../data/users.repository';
import { changeBalance, type Posting } from './ledger';

/**
 * Charges a recorded message: included credits first, then bought credits. The model has already
 * answered, so the whole cost is taken even when it takes the balance below zero.
 */
export async function chargeMessage(
  trx: Kysely<BillingDatabase>,
  bus: BillingDeps['bus'],
  message: MessageRecordedData,
) {
  if (message.cost <= 0) return null;
  const userId = await usersRepository(trx).resolve(message.user_id);
  return changeBalance(trx, bus, userId, `message:${message.message_id}`, (balance) => {
    const fromIncluded = Math.min(Math.max(balance.includedCredits, 0), message.cost);
    const fromCredits = message.cost - fromIncluded;
    const postings: Posting[] = [];
    if (fromIncluded > 0) postings.push({ bucket: 'included', amount: -fromIncluded });
    if (fromCredits > 0) postings.push({ bucket: 'credits', amount: -fromCredits });
    return { reason: 'message_charge', postings };
  });
}
