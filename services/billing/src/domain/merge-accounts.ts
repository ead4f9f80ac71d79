import { toMinorUnits, type AccountsLinkedData } from '@gpt/contracts';
import type { Kysely } from 'kysely';
import type { BillingDeps } from '../deps';
import type { Balance } from '../data/balances.repository';
import { holdsRepository } from '../data/holds.repository';
import { paymentsRepository } from '../data/payments.repository';
import { promoCodesRepository } from '../data/promo-codes.repository';
import type { BillingDatabase } from '../data/schema';
import { tariffsRepository } from '../data/tariffs.repository';
import { usersRepository } from '../data/users.repository';
import { ledgerIn } from './ledger';

/**
 * Accounts linked: the Telegram-only account's balances move to the surviving web account as
 * paired entries under one `merge:<event id>` reference, its paid tariff too when it is the
 * better one; its active holds now count against the survivor, and its payments (including
 * those still pending) credit the survivor. One person holds one welcome grant and one use of a
 * promo code: when both accounts had one, the Telegram account's is taken back (see takeBackSecond).
 */
export async function mergeAccounts(
  trx: Kysely<BillingDatabase>,
  bus: BillingDeps['bus'],
  eventId: string,
  linked: AccountsLinkedData,
): Promise<void> {
  const mergedId = linked.merged_user_id;
  const survivorId = linked.user_id;
  if (mergedId === null || mergedId === survivorId) return;

  const ledger = ledgerIn(trx, bus);
  const reference = `merge:${eventId}`;
  await ledger.lock([survivorId, mergedId]);
  if (await ledger.applied(reference)) return;
  await holdsRepository(trx).moveActive(mergedId, survivorId);
  // Read again under the same locks: the survivor's snapshot now counts the moved holds.
  const locked = await ledger.lock([survivorId, mergedId]);
  const merged = locked.get(mergedId) as Balance;
  const survivor = locked.get(survivorId) as Balance;
  const base = await tariffsRepository(trx).findDefault();
  const now = new Date();

  await ledger.post(merged, reference, {
    reason: 'merge',
    postings: [
      { bucket: 'credits', amount: -merged.credits },
      { bucket: 'included', amount: -merged.includedCredits },
    ],
    depositedDelta: negate(merged.moneyDeposited),
    tariff: { id: base.id, endDate: null },
    resume: null,
    welcomeCredits: 0,
  });
  const mergedTariffWins = betterTariff(merged, survivor, base.id, now);
  await ledger.post(survivor, reference, {
    reason: 'merge',
    postings: [
      { bucket: 'credits', amount: merged.credits },
      { bucket: 'included', amount: merged.includedCredits },
    ],
    depositedDelta: merged.moneyDeposited,
    ...(mergedTariffWins && {
      tariff: { id: merged.tariff.id, endDate: merged.tariffEndDate },
      resume: merged.resume,
    }),
    welcomeCredits: survivor.welcomeCredits || merged.welcomeCredits,
  });
  if (merged.welcomeCredits > 0 && survivor.welcomeCredits > 0) {
    const combined = (await ledger.lock([survivorId])).get(survivorId) as Balance;
    await takeBackSecond(ledger, combined, merged.welcomeCredits, `${reference}:welcome`, 'welcome_revoked');
  }
  for (const code of await promoCodesRepository(trx).creditsRedeemedByBoth(mergedId, survivorId)) {
    const combined = (await ledger.lock([survivorId])).get(survivorId) as Balance;
    await takeBackSecond(ledger, combined, code.credits, `${reference}:promo:${code.id}`, 'promo_revoked');
  }
  await usersRepository(trx).markMerged(mergedId, survivorId);
  await paymentsRepository(trx).moveToUser(mergedId, survivorId);
}

/**
 * Both accounts had what a person gets once — a welcome grant, a credit promo code: the second comes
 * back out of the bought credits as its own entry (reason `welcome_revoked`, `promo_revoked`). What of
 * it was already spent is not taken back, so the merge never leaves the credits below zero.
 */
async function takeBackSecond(
  ledger: ReturnType<typeof ledgerIn>,
  survivor: Balance,
  second: number,
  reference: string,
  reason: 'welcome_revoked' | 'promo_revoked',
): Promise<void> {
  const amount = Math.min(second, Math.max(0, survivor.credits));
  if (amount === 0) return;
  await ledger.post(survivor, reference, { reason, postings: [{ bucket: 'credits', amount: -amount }] });
}

/** The merged account's tariff wins when it is paid and running, and pricier (or as pricey but longer). */
function betterTariff(merged: Balance, survivor: Balance, baseId: number, now: Date): boolean {
  const running = (balance: Balance) =>
    balance.tariff.id !== baseId && balance.tariffEndDate !== null && balance.tariffEndDate > now;
  if (!running(merged)) return false;
  if (!running(survivor)) return true;
  const price = (balance: Balance) => toMinorUnits(balance.tariff.monthlyPrice, 2);
  if (price(merged) !== price(survivor)) return price(merged) > price(survivor);
  return (merged.tariffEndDate as Date) > (survivor.tariffEndDate as Date);
}

function negate(decimal: string): string {
  if (/^0+(\.0+)?$/.test(decimal)) return decimal;
  return decimal.startsWith('-') ? decimal.slice(1) : `-${decimal}`;
}
