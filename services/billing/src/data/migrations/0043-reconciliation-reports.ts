import { sql, type Kysely, type Migration } from 'kysely';

/** Each reconciliation with the providers: when, since when, what each source read, and every difference found. */
export const reconciliationReportsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('reconciliation_reports')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('started_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('since', 'timestamptz', (col) => col.notNull())
      .addColumn('sources', 'jsonb', (col) => col.notNull())
      .addColumn('differences', 'jsonb', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('reconciliation_reports').execute();
  },
};
