import type { Kysely, Migration } from 'kysely';

/**
 * A Telegram Stars subscription names the invoice it was bought with: Telegram sends every renewal's
 * `successful_payment` with that invoice's payload, so the renewal finds its subscription by it (one per invoice).
 */
export const starSubscriptionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('subscriptions')
      .addColumn('star_invoice_id', 'uuid', (col) => col.unique())
      .execute();
  },
};
