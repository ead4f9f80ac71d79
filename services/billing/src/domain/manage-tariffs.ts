import type { SuccessResponse, TariffInput, TariffResponse } from '@gpt/contracts';
import { type AdminAction, isUniqueViolation } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import { balancesRepository } from '../data/balances.repository';
import { isForeignKeyViolation } from '../data/db-errors';
import { tariffsRepository } from '../data/tariffs.repository';
import { ledgerIn } from './ledger';
import { billingErrors } from './errors';

/** A new tariff; its name must be unique (without regard to case). */
export const createTariff = (deps: BillingDeps, input: TariffInput, action: AdminAction): Promise<TariffResponse> =>
  deps.tariffAnswers.changing(() => create(deps, input, action));

async function create(deps: BillingDeps, input: TariffInput, action: AdminAction): Promise<TariffResponse> {
  if (await tariffsRepository(deps.db).nameTaken(input.name)) throw billingErrors.tariffNameTaken();
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const tariff = await tariffsRepository(trx).create(input);
      const record = { action: 'tariff.create', target: { type: 'tariff', id: tariff.id }, after: tariff };
      return action.finish(trx, record, { success: true, tariff });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw billingErrors.tariffNameTaken();
    throw err;
  }
}

/**
 * Edits a tariff. When its name or price changes, every holder's balance snapshot changes too, so
 * each is published again (with a new version) for the projections that show the tariff.
 */
export const updateTariff = (
  deps: BillingDeps,
  id: number,
  input: TariffInput,
  action: AdminAction,
): Promise<TariffResponse> => deps.tariffAnswers.changing(() => update(deps, id, input, action));

async function update(deps: BillingDeps, id: number, input: TariffInput, action: AdminAction): Promise<TariffResponse> {
  const before = await tariffsRepository(deps.db).findById(id);
  if (!before) throw billingErrors.tariffNotFound();
  if (await tariffsRepository(deps.db).nameTaken(input.name, id)) throw billingErrors.tariffNameTaken();
  try {
    return await deps.bus.transaction(async (trx) => {
      const updated = await tariffsRepository(trx).update(id, input);
      if (!updated) throw billingErrors.tariffNotFound();
      if (updated.name !== before.name || updated.monthly_price !== before.monthly_price) {
        const holders = await balancesRepository(trx).bumpHolders(id);
        await ledgerIn(trx, deps.bus).announce(holders, 'tariff_updated', `tariff-updated:${id}:${updated.updated_at}`);
      }
      const record = { action: 'tariff.update', target: { type: 'tariff', id }, before, after: updated };
      return action.finish(trx, record, { success: true, tariff: updated });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw billingErrors.tariffNameTaken();
    throw err;
  }
}

/** Deletes a tariff nobody holds or paid for; the default one (Base) stays. */
export const deleteTariff = (deps: BillingDeps, id: number, action: AdminAction): Promise<SuccessResponse> =>
  deps.tariffAnswers.changing(() => remove(deps, id, action));

async function remove(deps: BillingDeps, id: number, action: AdminAction): Promise<SuccessResponse> {
  const tariffs = tariffsRepository(deps.db);
  const tariff = await tariffs.findById(id);
  if (!tariff) throw billingErrors.tariffNotFound();
  if (await tariffs.isDefault(id)) {
    throw billingErrors.tariffDefault();
  }
  const usage = await tariffs.usage(id);
  if (usage.holders > 0) throw billingErrors.tariffInUse(usage.holders);
  if (usage.payments > 0) {
    throw billingErrors.tariffHasPayments();
  }
  if (usage.promoCodes > 0) throw billingErrors.tariffHasPromoCodes(usage.promoCodes);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      await tariffsRepository(trx).delete(id);
      const record = { action: 'tariff.delete', target: { type: 'tariff', id }, before: tariff };
      return action.finish(trx, record, { success: true, message: 'Тариф удален' });
    });
  } catch (err) {
    // Someone got the tariff between the check and the delete.
    if (isForeignKeyViolation(err)) throw billingErrors.tariffInUse((await tariffs.usage(id)).holders);
    throw err;
  }
}
