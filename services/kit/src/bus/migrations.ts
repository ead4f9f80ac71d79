import { sql, type Generated, type Migration } from 'kysely';

/** The bus's own tables, as Kysely sees them. */
export interface BusTables {
  outbox: {
    seq: Generated<string>;
    id: string;
    type: string;
    /** The envelope's JSON text, published as is. */
    payload: string;
    created_at: Generated<Date>;
    sent_at: Date | null;
  };
  inbox: {
    consumer: string;
    event_id: string;
    processed_at: Generated<Date>;
  };
}

/**
 * Outbox and inbox tables; services merge these into their own migrations. The names sort
 * before any service migration. Plain SQL types only, so PostgreSQL and PGlite run them alike.
 */
export const busMigrations: Record<string, Migration> = {
  '0000_bus_outbox': {
    async up(db) {
      await db.schema
        .createTable('outbox')
        .addColumn('seq', 'bigserial', (col) => col.primaryKey())
        .addColumn('id', 'uuid', (col) => col.notNull().unique())
        .addColumn('type', 'text', (col) => col.notNull())
        .addColumn('payload', 'text', (col) => col.notNull())
        .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('sent_at', 'timestamptz')
        .execute();
      // The relay only ever looks for unsent rows, oldest first.
      await db.schema
        .createIndex('outbox_unsent')
        .on('outbox')
        .column('seq')
        .where(sql.ref('sent_at'), 'is', null)
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('outbox').execute();
    },
  },
  '0000_bus_inbox': {
    async up(db) {
      await db.schema
        .createTable('inbox')
        .addColumn('consumer', 'text', (col) => col.notNull())
        .addColumn('event_id', 'uuid', (col) => col.notNull())
        .addColumn('processed_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('inbox_pkey', ['consumer', 'event_id'])
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('inbox').execute();
    },
  },
};
