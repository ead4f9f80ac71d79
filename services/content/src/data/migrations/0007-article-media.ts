import { createMediaTable } from '@gpt/kit';
import type { Kysely, Migration } from 'kysely';

/** Images uploaded for article bodies, kept in the database so any replica can serve them. */
export const articleMediaMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await createMediaTable(db);
  },
};
