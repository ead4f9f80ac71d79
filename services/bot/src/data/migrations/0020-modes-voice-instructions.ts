import type { Kysely, Migration } from 'kysely';

/** What a user chose for their calls: a chat mode, spoken answers, and their own instructions. */
export const modesVoiceInstructionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('chats')
      .addColumn('mode_id', 'integer')
      .addColumn('voice_replies', 'boolean', (col) => col.notNull().defaultTo(false))
      .addColumn('instructions', 'text')
      .addColumn('awaiting_instructions', 'boolean', (col) => col.notNull().defaultTo(false))
      .execute();
  },
};
