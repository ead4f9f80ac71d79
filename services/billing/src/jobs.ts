import type { Logger } from '@gpt/kit';
import type { BillingDeps } from './deps';
import { expireTariffs } from './domain/expire-tariffs';
import { expireHolds } from './domain/holds';
import { reconcileWhenDue } from './domain/provider-reconciliation';
import { runRenewals } from './domain/renew-subscription';
import { expireCardPayments, expireEmailWaits, reconcilePendingPayments } from './domain/settle-payment';

/**
 * Runs `work` now (or after `firstAfterMs`) and then every `intervalMs` after the previous run ends (runs
 * never overlap); a failed run is logged and the next one tries again. The stop function waits for a run in flight.
 */
function every(intervalMs: number, name: string, logger: Logger, work: () => Promise<number>, firstAfterMs = 0) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    running = work()
      .then((count) => {
        if (count > 0) logger.info({ job: name, count }, `${name}: done`);
      })
      .catch((err: unknown) => logger.error({ err, job: name }, `${name} failed; the next run retries`))
      .finally(() => {
        if (!stopped) timer = setTimeout(run, intervalMs);
      });
  };
  if (firstAfterMs > 0) timer = setTimeout(run, firstAfterMs);
  else run();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}

/** The first check of the reconciliation waits this long after start. */
const RECONCILE_FIRST_CHECK_MS = 5 * 60_000;

/**
 * Billing's background jobs: expired tariffs back to Base, lapsed holds marked expired, subscriptions renewed (with
 * their reminders and ends), payments
 * left pending re-fetched from the provider, card payments left unpaid past their time and payments that waited too
 * long for an e-mail canceled, the daily
 * comparison with the providers' own records. Safe to run in every replica at once: each change is guarded by row locks and
 * ledger references.
 */
export function startJobs(deps: BillingDeps): () => Promise<void> {
  const { config, logger } = deps;
  const stops = [
    every(config.TARIFF_EXPIRY_INTERVAL_SEC * 1000, 'tariff expiry', logger, () => expireTariffs(deps)),
    every(config.HOLD_EXPIRY_INTERVAL_SEC * 1000, 'hold expiry', logger, () => expireHolds(deps)),
    every(config.RENEWAL_INTERVAL_SEC * 1000, 'renewals', logger, () => runRenewals(deps, deps.providers)),
    every(config.PAYMENT_RECONCILE_INTERVAL_SEC * 1000, 'payment reconciliation', logger, () =>
      reconcilePendingPayments(deps, deps.providers),
    ),
    every(config.PAYMENT_RECONCILE_INTERVAL_SEC * 1000, 'e-mail wait expiry', logger, () => expireEmailWaits(deps)),
    every(config.PAYMENT_RECONCILE_INTERVAL_SEC * 1000, 'card payment expiry', logger, () =>
      expireCardPayments(deps, deps.providers),
    ),
    // Checked hourly, run once the latest report is RECONCILE_INTERVAL_SEC old: whichever replica is first. The
    // first check waits a few minutes, until the bot (which reads Telegram's transactions) has started too.
    every(
      Math.min(3600, config.RECONCILE_INTERVAL_SEC) * 1000,
      'reconciliation with the providers',
      logger,
      () => reconcileWhenDue(deps, deps.providers),
      RECONCILE_FIRST_CHECK_MS,
    ),
  ];
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
