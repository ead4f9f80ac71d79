import type { Kysely, Migration } from 'kysely';

/**
 * `refund_key`: the provider's Idempotence-Key of the refund try under way — the action id of the admin's
 * Idempotency-Key that started it (docs/money.md, Admin actions) — so every retry of that try, under any
 * key, asks YooKassa for the same refund.
 */
export const refundKeysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('payments').addColumn('refund_key', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('payments').dropColumn('refund_key').execute();
  },
};
