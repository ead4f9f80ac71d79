import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Views are counted in memory and added in batches; each batch's id is recorded in the same
 * transaction as its counts, so a batch retried after a failure whose commit did happen is not added twice.
 */
export const viewBatchesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('view_batches')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('applied_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('view_batches_applied_at_idx').on('view_batches').column('applied_at').execute();
  },
};
