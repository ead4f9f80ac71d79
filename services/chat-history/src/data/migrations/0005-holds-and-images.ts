import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Image generation and billing holds: a model may have a price per generated image, and a
 * message records how many images it produced and the bot's billing hold it was made under.
 */
export const holdsAndImagesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('ai_models')
      .addColumn('image_price', sql`numeric(16, 6)`, (col) => col.check(sql`image_price >= 0`))
      .execute();
    await db.schema
      .alterTable('messages')
      .addColumn('image_count', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`image_count >= 0`),
      )
      .addColumn('hold_id', 'uuid')
      .execute();
  },
};
