import { sql, type Kysely, type Migration } from 'kysely';

/** How long a conversation's title taken from its first question may be. */
const TITLE_CHARS = 80;

/**
 * Conversations belong to the user, not to a Telegram chat, and record each message's door: the
 * bot's turns (per Telegram chat and conversation number) become conversations of the chat's user,
 * titled from their first question, each turn a message of door `telegram`. A chat's current
 * conversation (the last used, docs/architecture.md, The assistant) is the newest: one with no turns
 * yet (after /new) becomes an empty conversation. The web chat's preferences of users without a
 * Telegram chat, and the answer being generated on each `generations` row, are kept too.
 */
export const conversationsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('conversations')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('title', 'text')
      .addColumn('last_door', 'text', (col) => col.notNull().check(sql`last_door in ('telegram', 'web')`))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('legacy_telegram_id', 'bigint')
      .addColumn('legacy_number', 'integer')
      .execute();
    await db.schema
      .createIndex('conversations_user_updated')
      .on('conversations')
      .columns(['user_id', 'updated_at'])
      .execute();

    await db.schema
      .createTable('conversation_messages')
      .addColumn('id', 'uuid', (col) => col.primaryKey())
      .addColumn('seq', 'bigserial', (col) => col.notNull().unique())
      .addColumn('conversation_id', 'uuid', (col) => col.notNull().references('conversations.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (col) => col.notNull())
      .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('user', 'assistant')`))
      .addColumn('text', 'text', (col) => col.notNull())
      .addColumn('model', 'text')
      .addColumn('cost', 'integer')
      .addColumn('door', 'text', (col) => col.notNull().check(sql`door in ('telegram', 'web')`))
      .addColumn('status', 'text', (col) =>
        col.notNull().check(sql`status in ('done', 'streaming', 'stopped', 'failed')`),
      )
      .addColumn('stop_requested', 'boolean', (col) => col.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('conversation_messages_order')
      .on('conversation_messages')
      .columns(['conversation_id', 'seq'])
      .execute();
    // One answer at a time per conversation: a second is refused by the database itself.
    await db.schema
      .createIndex('conversation_messages_one_running')
      .on('conversation_messages')
      .column('conversation_id')
      .unique()
      .where(sql.ref('status'), '=', 'streaming')
      .execute();
    await sql`CREATE INDEX conversation_messages_search ON conversation_messages
      USING gin (to_tsvector('russian', text))`.execute(db);
    await db.schema.createIndex('conversation_messages_user').on('conversation_messages').column('user_id').execute();

    await sql`INSERT INTO conversations (id, user_id, title, last_door, created_at, updated_at, legacy_telegram_id, legacy_number)
      SELECT gen_random_uuid(), c.user_id,
        (SELECT left(split_part(btrim(f.content), E'\n', 1), ${sql.lit(TITLE_CHARS)}) FROM turns f
          WHERE f.telegram_id = t.telegram_id AND f.conversation = t.conversation AND f.role = 'user'
          ORDER BY f.id LIMIT 1),
        'telegram', min(t.created_at),
        CASE WHEN t.conversation = c.conversation THEN now() ELSE max(t.created_at) END,
        t.telegram_id, t.conversation
      FROM turns t JOIN chats c ON c.telegram_id = t.telegram_id
      GROUP BY t.telegram_id, t.conversation, c.user_id, c.conversation`.execute(db);
    await sql`INSERT INTO conversations (id, user_id, title, last_door, created_at, updated_at, legacy_telegram_id, legacy_number)
      SELECT gen_random_uuid(), c.user_id, NULL, 'telegram', now(), now(), c.telegram_id, c.conversation
      FROM chats c
      WHERE EXISTS (SELECT 1 FROM turns t WHERE t.telegram_id = c.telegram_id)
        AND NOT EXISTS (SELECT 1 FROM turns t WHERE t.telegram_id = c.telegram_id AND t.conversation = c.conversation)`.execute(
      db,
    );
    await sql`INSERT INTO conversation_messages (id, conversation_id, user_id, role, text, door, status, created_at)
      SELECT gen_random_uuid(), v.id, v.user_id, t.role, t.content, 'telegram', 'done', t.created_at
      FROM turns t JOIN conversations v ON v.legacy_telegram_id = t.telegram_id AND v.legacy_number = t.conversation
      ORDER BY t.id`.execute(db);
    await db.schema.alterTable('conversations').dropColumn('legacy_telegram_id').dropColumn('legacy_number').execute();
    await db.schema.dropTable('turns').execute();
    await db.schema.alterTable('chats').dropColumn('conversation').execute();

    await db.schema
      .createTable('chat_preferences')
      .addColumn('user_id', 'integer', (col) => col.primaryKey())
      .addColumn('model', 'text')
      .addColumn('mode_id', 'integer')
      .addColumn('instructions', 'text')
      .execute();

    await db.schema
      .alterTable('generations')
      .addColumn('answer_id', 'uuid')
      .alterColumn('telegram_id', (col) => col.dropNotNull())
      .execute();
    await db.schema
      .alterTable('generations')
      .alterColumn('chat_id', (col) => col.dropNotNull())
      .execute();
  },
};
