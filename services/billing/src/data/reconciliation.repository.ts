import type { ReconciliationReport } from '@gpt/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { BillingDatabase, PaymentsTable } from './schema';

/** A payment as the reconciliation compares it with the provider's record. */
export interface ComparedPayment {
  id: number;
  paymentId: string;
  userId: number;
  provider: 'yookassa' | 'telegram_stars';
  status: string;
  amount: string;
  starAmount: number | null;
  yookassaPaymentId: string | null;
  chargeId: string | null;
}

const compared = (row: Selectable<PaymentsTable>): ComparedPayment => ({
  id: row.id,
  paymentId: row.payment_id,
  userId: row.user_id,
  provider: row.provider,
  status: row.status,
  amount: row.amount,
  starAmount: row.star_amount,
  yookassaPaymentId: row.yookassa_payment_id,
  chargeId: row.telegram_payment_charge_id,
});

/** What the reconciliation reads of billing's payments, and where it keeps its reports. */
export function reconciliationRepository(db: Kysely<BillingDatabase>) {
  return {
    /** Payments created since `since`, whatever their status. */
    async paymentsSince(since: Date): Promise<ComparedPayment[]> {
      const rows = await db.selectFrom('payments').selectAll().where('created_at', '>=', since).execute();
      return rows.map(compared);
    },

    /** Our payments that the provider's ids name, whenever they were made: YooKassa's ids, our public ids, charge ids. */
    async paymentsNamed(ids: { yookassa: string[]; public: string[]; charges: string[] }): Promise<ComparedPayment[]> {
      if (ids.yookassa.length + ids.public.length + ids.charges.length === 0) return [];
      const rows = await db
        .selectFrom('payments')
        .selectAll()
        .where((eb) =>
          eb.or([
            ...(ids.yookassa.length ? [eb('yookassa_payment_id', 'in', ids.yookassa)] : []),
            ...(ids.public.length ? [eb('payment_id', 'in', ids.public)] : []),
            ...(ids.charges.length ? [eb('telegram_payment_charge_id', 'in', ids.charges)] : []),
          ]),
        )
        .execute();
      return rows.map(compared);
    },

    async save(report: Omit<ReconciliationReport, 'id' | 'started_at'>): Promise<ReconciliationReport> {
      const row = await db
        .insertInto('reconciliation_reports')
        .values({
          since: report.since,
          sources: JSON.stringify(report.sources),
          differences: JSON.stringify(report.differences),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toReport(row);
    },

    async latest(): Promise<ReconciliationReport | null> {
      const row = await db
        .selectFrom('reconciliation_reports')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toReport(row) : null;
    },
  };
}

function toReport(row: Selectable<BillingDatabase['reconciliation_reports']>): ReconciliationReport {
  return {
    id: row.id,
    started_at: new Date(row.started_at).toISOString(),
    since: new Date(row.since).toISOString(),
    sources: row.sources,
    differences: row.differences,
  };
}
