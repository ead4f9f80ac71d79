import type { Kysely, Migration } from 'kysely';

/** The Telegram account's profile photo the bot sent with a link, for the link page to show (a data URL). */
export const linkPhotoMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('link_tokens').addColumn('photo', 'text').execute();
  },
};
