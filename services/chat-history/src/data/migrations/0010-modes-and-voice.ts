import { sql, type Kysely, type Migration } from 'kysely';

const now = sql`now()`;

/**
 * Chat modes (admin-managed system prompts, one of them the default), voice prices on the model
 * rows (per minute of transcribed audio, per 1 000 characters read aloud), and what a message
 * records of them: the user's mode and the voice parts of its cost. An installation that already
 * has models gets the speech-recognition and speech models a new one is seeded with.
 */
export const modesAndVoiceMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('chat_modes')
      .addColumn('id', 'serial', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull().unique())
      .addColumn('emoji', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('system_prompt', 'text', (col) => col.notNull())
      .addColumn('is_active', 'boolean', (col) => col.notNull().defaultTo(true))
      .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('is_default', 'boolean', (col) => col.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
      .addCheckConstraint('chat_modes_default_active', sql`not is_default or is_active`)
      .execute();
    await sql`create unique index chat_modes_one_default on chat_modes (is_default) where is_default`.execute(db);

    await db.schema
      .alterTable('ai_models')
      .addColumn('transcription_price_per_minute', sql`numeric(16, 6)`, (col) =>
        col.check(sql`transcription_price_per_minute >= 0`),
      )
      .addColumn('speech_price_per_1k_chars', sql`numeric(16, 6)`, (col) =>
        col.check(sql`speech_price_per_1k_chars >= 0`),
      )
      .execute();
    await sql`
      insert into ai_models (model, description, input_price_per_1m, output_price_per_1m,
                             transcription_price_per_minute, speech_price_per_1k_chars)
      select v.model, v.description, 0, 0, v.per_minute, v.per_1k
      from (values ('whisper-1', 'Распознавание голосовых сообщений', 0.006::numeric, null::numeric),
                   ('tts-1', 'Озвучивание ответов', null::numeric, 0.015::numeric))
           as v (model, description, per_minute, per_1k)
      where exists (select 1 from ai_models)
      on conflict (model) do nothing
    `.execute(db);

    await db.schema
      .alterTable('messages')
      .addColumn('mode', 'text')
      .addColumn('audio_seconds', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`audio_seconds >= 0`),
      )
      .addColumn('transcription_cost', sql`numeric(30, 12)`, (col) => col.notNull().defaultTo(0))
      .addColumn('speech_characters', 'integer', (col) =>
        col
          .notNull()
          .defaultTo(0)
          .check(sql`speech_characters >= 0`),
      )
      .addColumn('speech_cost', sql`numeric(30, 12)`, (col) => col.notNull().defaultTo(0))
      .execute();
  },
};
