import type { BillingDeps } from '../deps';
import { balancesRepository } from '../data/balances.repository';
import { tariffsRepository } from '../data/tariffs.repository';
import { changeBalance } from './ledger';
import { expiredPeriod } from './tariff-period';

const BATCH = 100;

/**
 * The expiry job: every tariff whose paid month has ended goes back to the default tariff and its
 * included credits are zeroed, or to the paid tariff a promo code's tariff had set aside (one
 * ledger entry and one `credits.changed` each). Answers how many.
 */
export async function expireTariffs(deps: BillingDeps, now = new Date()): Promise<number> {
  const base = await tariffsRepository(deps.db).findDefault();
  let expired = 0;
  for (;;) {
    const userIds = await balancesRepository(deps.db).expired(now, BATCH);
    for (const userId of userIds) {
      const changed = await deps.bus.transaction((trx) =>
        changeBalance(trx, deps.bus, userId, `expiry:${userId}:${now.toISOString()}`, (balance) =>
          balance.tariffEndDate !== null && balance.tariffEndDate <= now
            ? { reason: 'tariff_expired', ...expiredPeriod(balance, base.id) }
            : null,
        ),
      );
      if (changed) expired++;
    }
    if (userIds.length < BATCH) return expired;
  }
}
