import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The history sorted by price (finding the dearest messages) reads these instead of sorting every
 * row; the other columns sort rarely and a full sort of them stays acceptable.
 */
export const costSortIndexesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create index messages_total_cost on messages (total_cost, id)`.execute(db);
    await sql`create index messages_cost on messages (cost, id)`.execute(db);
  },
};
