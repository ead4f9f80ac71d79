import type { PaymentKind } from '@gpt/contracts';
import type { Kysely } from 'kysely';
import { toSafeInt } from './numbers';
import type { BillingDatabase } from './schema';

/** The price of a Stars invoice as billing quoted it. */
export interface StarInvoice {
  id: string;
  userId: number;
  kind: PaymentKind;
  tariffId: number | null;
  amount: string;
  creditsAmount: number;
  starAmount: number;
  description: string;
  /** When billing quoted it (set by the database). */
  createdAt?: Date;
  /** A Stars subscription's invoice (a link with `subscription_period`). */
  subscription?: boolean;
}

/** Stars invoices the bot sent: the invoice payload is the row's id. */
export function starInvoicesRepository(db: Kysely<BillingDatabase>) {
  return {
    async insert(invoice: StarInvoice): Promise<void> {
      await db
        .insertInto('star_invoices')
        .values({
          id: invoice.id,
          user_id: invoice.userId,
          kind: invoice.kind,
          tariff_id: invoice.tariffId,
          amount: invoice.amount,
          credits_amount: invoice.creditsAmount,
          star_amount: invoice.starAmount,
          description: invoice.description,
          subscription: invoice.subscription ?? false,
        })
        .execute();
    },
    async find(id: string): Promise<StarInvoice | null> {
      const row = await db.selectFrom('star_invoices').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      return {
        id: row.id,
        userId: row.user_id,
        kind: row.kind,
        tariffId: row.tariff_id,
        amount: row.amount,
        creditsAmount: toSafeInt(row.credits_amount),
        starAmount: row.star_amount,
        description: row.description,
        createdAt: new Date(row.created_at),
        subscription: row.subscription,
      };
    },
  };
}
