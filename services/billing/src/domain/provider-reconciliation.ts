import type {
  ReconciliationDifference,
  ReconciliationReport,
  StarTransaction,
  YookassaPayment,
  YookassaRefund,
} from '@gpt/contracts';
import type { BillingDeps } from '../deps';
import { type ComparedPayment, reconciliationRepository } from '../data/reconciliation.repository';
import type { Providers } from '../provider';
import { billingErrors } from './errors';

/** Our payments that count as paid: credited, or credited and then refunded. */
const PAID = new Set(['succeeded', 'refunded']);
/** One reconciliation at a time, across replicas; the lock lapses if its holder dies. */
const RUN_LOCK = 'billing:reconciliation';
const RUN_LOCK_TTL_SEC = 600;

type Source = ReconciliationReport['sources'][number];

/**
 * Compares billing's payments and refunds of the last `RECONCILE_DAYS` days with the providers' own records —
 * YooKassa's lists of payments and refunds, Telegram's Stars transactions (read by the bot) — and keeps the
 * report; every difference is logged too. Nothing is corrected: an admin reads the differences and decides
 * (docs/money.md, Reconciliation). A source that cannot be read is reported so, the others still compared.
 */
export async function reconcileWithProviders(
  deps: BillingDeps,
  providers: Providers,
  now = new Date(),
): Promise<ReconciliationReport> {
  const owner = `${process.pid}:${now.getTime()}`;
  if (!(await deps.kv.acquire(RUN_LOCK, owner, RUN_LOCK_TTL_SEC))) throw billingErrors.reconciliationRunning();
  try {
    const since = new Date(now.getTime() - deps.config.RECONCILE_DAYS * 86_400_000);
    const repository = reconciliationRepository(deps.db);
    const ours = await repository.paymentsSince(since);
    const [yookassa, stars] = await Promise.all([
      compareSource('yookassa', () => yookassaDifferences(deps, providers, since, ours)),
      compareSource('telegram_stars', () => starDifferences(deps, providers, since, ours)),
    ]);
    const differences = [...yookassa.differences, ...stars.differences];
    const report = await repository.save({
      since: since.toISOString(),
      sources: [yookassa.source, stars.source],
      differences,
    });
    for (const difference of differences)
      deps.logger.warn({ difference }, 'reconciliation: a difference with the provider');
    for (const source of report.sources) {
      if (source.error) deps.logger.error({ source }, 'reconciliation: a provider could not be read');
    }
    deps.logger.info({ differences: differences.length, since: report.since }, 'reconciliation done');
    return report;
  } finally {
    await deps.kv.release(RUN_LOCK, owner);
  }
}

/** The daily run: skipped while the latest report is younger than the interval (a restart does not repeat it). */
export async function reconcileWhenDue(deps: BillingDeps, providers: Providers): Promise<number> {
  const latest = await reconciliationRepository(deps.db).latest();
  const due = !latest || Date.now() - Date.parse(latest.started_at) >= deps.config.RECONCILE_INTERVAL_SEC * 1000;
  if (!due) return 0;
  return (await reconcileWithProviders(deps, providers)).differences.length;
}

async function compareSource(
  source: Source['source'],
  compare: () => Promise<{ checked: number; differences: ReconciliationDifference[] }>,
): Promise<{ source: Source; differences: ReconciliationDifference[] }> {
  try {
    const { checked, differences } = await compare();
    return { source: { source, checked, error: null }, differences };
  } catch (err) {
    return {
      source: { source, checked: null, error: err instanceof Error ? err.message : String(err) },
      differences: [],
    };
  }
}

const difference = (
  source: Source['source'],
  kind: ReconciliationDifference['kind'],
  providerId: string,
  payment: ComparedPayment | undefined,
  ours: string | null,
  theirs: string | null,
): ReconciliationDifference => ({
  source,
  kind,
  provider_id: providerId,
  payment_id: payment?.id ?? null,
  user_id: payment?.userId ?? null,
  ours,
  theirs,
});

async function yookassaDifferences(deps: BillingDeps, providers: Providers, since: Date, ours: ComparedPayment[]) {
  const listed = await providers.provider.list(since);
  const paidThere = listed.payments.filter((payment) => payment.status === 'succeeded');
  const named = await reconciliationRepository(deps.db).paymentsNamed({
    yookassa: paidThere.map((payment) => payment.id),
    public: paidThere.flatMap((payment) => (payment.metadata?.payment_id ? [payment.metadata.payment_id] : [])),
    charges: [],
  });
  const ourOf = (theirs: YookassaPayment) =>
    named.find((payment) => payment.yookassaPaymentId === theirs.id) ??
    named.find((payment) => payment.paymentId === theirs.metadata?.payment_id);
  const found: ReconciliationDifference[] = [];
  for (const theirs of paidThere) {
    const payment = ourOf(theirs);
    const amount = theirs.amount.value;
    if (!payment) found.push(difference('yookassa', 'unknown_payment', theirs.id, undefined, null, amount));
    else if (!PAID.has(payment.status)) {
      found.push(difference('yookassa', 'missing_credit', theirs.id, payment, null, amount));
    } else if (payment.amount !== amount) {
      found.push(difference('yookassa', 'amount_differs', theirs.id, payment, payment.amount, amount));
    }
  }
  const theirsById = new Map(listed.payments.map((payment) => [payment.id, payment]));
  for (const payment of ours.filter((p) => p.provider === 'yookassa' && PAID.has(p.status))) {
    const theirs = payment.yookassaPaymentId ? theirsById.get(payment.yookassaPaymentId) : undefined;
    if (theirs?.status !== 'succeeded') {
      const id = payment.yookassaPaymentId ?? payment.paymentId;
      found.push(difference('yookassa', 'not_paid_there', id, payment, payment.amount, theirs?.amount.value ?? null));
    }
  }
  if (listed.refunds) found.push(...refundDifferences(listed.refunds, ours, named));
  return { checked: listed.payments.length + (listed.refunds?.length ?? 0), differences: found };
}

function refundDifferences(refunds: YookassaRefund[], ours: ComparedPayment[], named: ComparedPayment[]) {
  const refundedThere = new Map(
    refunds.filter((refund) => refund.status === 'succeeded').map((refund) => [refund.payment_id, refund]),
  );
  const found: ReconciliationDifference[] = [];
  for (const payment of ours.filter((p) => p.provider === 'yookassa' && p.status === 'refunded')) {
    if (payment.yookassaPaymentId && !refundedThere.has(payment.yookassaPaymentId)) {
      found.push(
        difference('yookassa', 'refund_missing_there', payment.yookassaPaymentId, payment, payment.amount, null),
      );
    }
  }
  for (const [paymentId, refund] of refundedThere) {
    const payment = [...ours, ...named].find((p) => p.yookassaPaymentId === paymentId);
    if (payment?.status !== 'refunded') {
      found.push(difference('yookassa', 'unknown_refund', paymentId, payment, null, refund.amount.value));
    }
  }
  return found;
}

async function starDifferences(deps: BillingDeps, providers: Providers, since: Date, ours: ComparedPayment[]) {
  const transactions = await providers.stars.transactions(since);
  const paid = transactions.filter((t) => t.kind === 'payment');
  const refunded = new Map(transactions.filter((t) => t.kind === 'refund').map((t) => [t.id, t]));
  const named = await reconciliationRepository(deps.db).paymentsNamed({
    yookassa: [],
    public: [],
    charges: paid.map((t) => t.id),
  });
  const found: ReconciliationDifference[] = [];
  const stars = (payment: ComparedPayment) => (payment.starAmount === null ? null : String(payment.starAmount));
  for (const theirs of paid) {
    const payment = named.find((p) => p.chargeId === theirs.id);
    const amount = String(theirs.stars);
    if (!payment) found.push(difference('telegram_stars', 'unknown_payment', theirs.id, undefined, null, amount));
    else if (!PAID.has(payment.status)) {
      found.push(difference('telegram_stars', 'missing_credit', theirs.id, payment, null, amount));
    } else if (payment.starAmount !== theirs.stars) {
      found.push(difference('telegram_stars', 'amount_differs', theirs.id, payment, stars(payment), amount));
    }
    if (refunded.has(theirs.id) && payment?.status !== 'refunded') {
      found.push(difference('telegram_stars', 'unknown_refund', theirs.id, payment, null, amount));
    }
  }
  const paidThere = new Set(paid.map((t: StarTransaction) => t.id));
  for (const payment of ours.filter((p) => p.provider === 'telegram_stars' && PAID.has(p.status))) {
    const id = payment.chargeId ?? payment.paymentId;
    if (!paidThere.has(id))
      found.push(difference('telegram_stars', 'not_paid_there', id, payment, stars(payment), null));
    else if (payment.status === 'refunded' && !refunded.has(id)) {
      found.push(difference('telegram_stars', 'refund_missing_there', id, payment, stars(payment), null));
    }
  }
  return { checked: transactions.length, differences: found };
}
