import { sql, type Kysely, type Migration } from 'kysely';

/**
 * What the bot waits for from a user, as one state (`awaiting`): their personal instructions, or the
 * receipt e-mail of a payment (`awaiting_payment_id`); asking one question ends the other.
 */
export const awaitingMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('chats').renameColumn('awaiting_email_payment', 'awaiting_payment_id').execute();
    await db.schema
      .alterTable('chats')
      .addColumn('awaiting', 'text', (col) => col.check(sql`awaiting IN ('instructions', 'receipt_email')`))
      .execute();
    await sql`UPDATE chats SET awaiting = CASE
        WHEN awaiting_payment_id IS NOT NULL THEN 'receipt_email'
        WHEN awaiting_instructions THEN 'instructions'
      END`.execute(db);
    await db.schema.alterTable('chats').dropColumn('awaiting_instructions').execute();
    await db.schema
      .alterTable('chats')
      .addCheckConstraint(
        'chats_awaiting_payment',
        sql`(awaiting = 'receipt_email') = (awaiting_payment_id IS NOT NULL) OR awaiting IS NULL AND awaiting_payment_id IS NULL`,
      )
      .execute();
  },
};
