import type { BalanceSnapshot, InternalAdminAdjustmentRequest } from '@gpt/contracts';
import { type AuditActor, recordAudit } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import { balancesRepository } from '../data/balances.repository';
import { tariffsRepository } from '../data/tariffs.repository';
import { ledgerIn, toSnapshot } from './ledger';
import { assignedPeriod } from './tariff-period';
import { billingErrors } from './errors';

/**
 * The admin's deposit and/or tariff change from the users screen (internal call from auth).
 * Each is a ledger entry under `admin:<action id>` carrying the acting admin's id (the audit
 * trail) and an entry of the audit log in the same transaction (the admin, their address and browser as auth
 * forwarded them, the reason and the key); repeating the action id changes nothing and answers the current balance.
 */
export async function applyAdminAdjustment(
  deps: BillingDeps,
  request: InternalAdminAdjustmentRequest,
  actor: AuditActor,
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
    const entry = (action: string, before: BalanceSnapshot, after: BalanceSnapshot) =>
      recordAudit(trx, actor, {
        action,
        target: { type: 'user', id: request.user_id, userId: request.user_id },
        before: balanceFigures(before),
        after: balanceFigures(after),
        reason: request.reason ?? null,
        idempotencyKey: request.idempotency_key ?? null,
      });
    let snapshot = toSnapshot(balance);
    if (tariff && tariff.id !== balance.tariff.id) {
      const isDefault = await tariffsRepository(trx).isDefault(tariff.id);
      const before = snapshot;
      snapshot = await ledger.post(balance, reference, {
        ...audit,
        reason: 'admin_tariff',
        ...assignedPeriod(balance, tariff, isDefault, new Date()),
      });
      await entry('user.tariff', before, snapshot);
      balance = (await balancesRepository(trx).find(request.user_id)) ?? balance;
    }
    if (request.deposit_credits !== undefined) {
      const before = snapshot;
      snapshot = await ledger.post(balance, reference, {
        ...audit,
        reason: 'admin_deposit',
        postings: [{ bucket: 'credits', amount: request.deposit_credits }],
      });
      await entry('user.deposit', before, snapshot);
    }
    return snapshot;
  });
}

/** What an admin's change of a balance is about, as the audit log shows it before and after. */
const balanceFigures = (snapshot: BalanceSnapshot) => ({
  credits: snapshot.credits,
  included_credits: snapshot.included_credits,
  tariff: snapshot.tariff.name,
});
