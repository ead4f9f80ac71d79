import type { Kysely, Migration } from 'kysely';

/** The user turned the bot's broadcasts off («Новости и акции», in the bot's /settings or on the site). */
export const newsOptOutMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('news_opt_out', 'boolean', (col) => col.notNull().defaultTo(false))
      .execute();
  },
};
