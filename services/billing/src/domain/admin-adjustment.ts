import type { BalanceSnapshot, InternalAdminAdjustmentRequest } from '@gpt/contracts';
import type { BillingDeps } from '../deps';
import { balancesRepository } from '../data/balances.repository';
import { tariffsRepository } from '../data/tariffs.repository';
import { ledgerIn, toSnapshot } from './ledger';
import { assignedPeriod } from './tariff-period';
import { billingErrors } from './errors';

/**
 * The admin's deposit and/or tariff change from the users screen (internal call from auth).
 * Each is a ledger entry under `admin:<action id>` carrying the acting admin's id (the audit
 * trail); repeating the action id changes nothing and answers the current balance.
 */
export async function applyAdminAdjustment(
  deps: BillingDeps,
  request: InternalAdminAdjustmentRequest,
): Promise<BalanceSnapshot> {
  const reference = `admin:${request.action_id}`;
  const tariff = request.tariff_id === undefined ? null : await tariffsRepository(deps.db).findById(request.tariff_id);
  if (request.tariff_id !== undefined && !tariff) throw billingErrors.tariffNotFound();

  return deps.bus.transaction(async (trx) => {
    const ledger = ledgerIn(trx, deps.bus);
    let balance = (await ledger.lock([request.user_id])).get(request.user_id);
    if (!balance) throw new Error(`no balance for user ${request.user_id}`);
    const owner = await ledger.owner(reference);
    if (owner !== null) {
      if (owner !== request.user_id) throw billingErrors.adjustmentOfAnotherUser();
      return toSnapshot(balance);
    }
    const audit = { adminId: request.admin_id };
    let snapshot = toSnapshot(balance);
    if (tariff && tariff.id !== balance.tariff.id) {
      const isDefault = await tariffsRepository(trx).isDefault(tariff.id);
      snapshot = await ledger.post(balance, reference, {
        ...audit,
        reason: 'admin_tariff',
        ...assignedPeriod(balance, tariff, isDefault, new Date()),
      });
      balance = (await balancesRepository(trx).find(request.user_id)) ?? balance;
    }
    if (request.deposit_credits !== undefined) {
      snapshot = await ledger.post(balance, reference, {
        ...audit,
        reason: 'admin_deposit',
        postings: [{ bucket: 'credits', amount: request.deposit_credits }],
      });
    }
    return snapshot;
  });
}
