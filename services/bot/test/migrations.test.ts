import { afterAll, expect, test } from '@jest/globals';
import { createLogger, openDatabase } from '@gpt/kit';
import { createTestDatabase, dropTestDatabase } from '@gpt/kit/testing';
import { sql } from 'kysely';
import { migrations } from '../src/data/migrations';
import { chatsRepository } from '../src/data/chats.repository';
import { conversationsRepository } from '../src/data/conversations.repository';
import type { BotDatabase } from '../src/data/schema';

const logger = createLogger({ name: 'bot-migrations', level: 'silent' });
const urls: string[] = [];
afterAll(async () => {
  await Promise.all(urls.map(dropTestDatabase));
});

/** The bot's database as an earlier version left it: the migrations before `next` applied. */
async function databaseBefore(next: string) {
  const url = await createTestDatabase('bot_migrations');
  urls.push(url);
  const earlier = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < next));
  const database = await openDatabase<BotDatabase>({ service: 'bot', url, migrations: earlier, logger });
  return { url, database };
}

test('the two awaiting flags become one state, and what each chat waited for is kept', async () => {
  const { url, database } = await databaseBefore('0042_awaiting');
  await sql`INSERT INTO chats (telegram_id, user_id, chat_id, web_linked, updated_at, awaiting_email_payment, awaiting_instructions)
    VALUES (1, 1, 1, false, now(), 'pay-1', false), (2, 2, 2, false, now(), NULL, true), (3, 3, 3, false, now(), NULL, false)`.execute(
    database.db,
  );
  await database.close();

  const upgraded = await openDatabase<BotDatabase>({ service: 'bot', url, migrations, logger });
  const chats = chatsRepository(upgraded.db);
  try {
    expect((await chats.find(1))?.awaiting).toEqual({ kind: 'receiptEmail', paymentId: 'pay-1' });
    expect((await chats.find(2))?.awaiting).toEqual({ kind: 'instructions' });
    expect((await chats.find(3))?.awaiting).toBeNull();

    await chats.setAwaiting(1, { kind: 'instructions' });
    expect((await chats.find(1))?.awaiting).toEqual({ kind: 'instructions' });
    await chats.stopAwaiting(1, 'receiptEmail');
    expect((await chats.find(1))?.awaiting).toEqual({ kind: 'instructions' });
    await expect(
      sql`UPDATE chats SET awaiting = 'receipt_email' WHERE telegram_id = 3`.execute(upgraded.db),
    ).rejects.toThrow(/chats_awaiting_payment/);
  } finally {
    await upgraded.close();
  }
});

test("the bot's turns become the users' conversations with nothing lost, each message of door telegram", async () => {
  const { url, database } = await databaseBefore('0060_conversations');
  // Chat 1 (user 10): conversation 1 of two turns, conversation 2 (current) of one. Chat 2 (user 20): after /new, its
  // current conversation 3 has no turns yet. Chat 3 (user 30) never asked anything.
  await sql`INSERT INTO chats (telegram_id, user_id, chat_id, web_linked, updated_at, conversation)
    VALUES (1, 10, 1, false, now(), 2), (2, 20, 2, false, now(), 3), (3, 30, 3, false, now(), 1)`.execute(database.db);
  await sql`INSERT INTO turns (telegram_id, conversation, role, content, created_at) VALUES
    (1, 1, 'user', ${'Первый вопрос\nс переносом'}, '2026-01-01T10:00:00Z'),
    (1, 1, 'assistant', 'Первый ответ', '2026-01-01T10:00:05Z'),
    (1, 2, 'user', 'Второй разговор', '2026-01-02T10:00:00Z'),
    (2, 2, 'user', 'Старый вопрос', '2026-01-03T10:00:00Z'),
    (2, 2, 'assistant', 'Старый ответ', '2026-01-03T10:00:01Z')`.execute(database.db);
  await database.close();

  const upgraded = await openDatabase<BotDatabase>({ service: 'bot', url, migrations, logger });
  const conversations = conversationsRepository(upgraded.db);
  try {
    const first = await conversations.list(10);
    expect(first.map((conversation) => conversation.title)).toEqual(['Второй разговор', 'Первый вопрос']);
    expect((await conversations.current(10))?.title).toBe('Второй разговор');
    const messages = await conversations.messages(first[1]!.id);
    expect(messages.map((m) => [m.role, m.text, m.door, m.status, m.createdAt.toISOString()])).toEqual([
      ['user', 'Первый вопрос\nс переносом', 'telegram', 'done', '2026-01-01T10:00:00.000Z'],
      ['assistant', 'Первый ответ', 'telegram', 'done', '2026-01-01T10:00:05.000Z'],
    ]);
    expect(await conversations.history(first[0]!.id, 100)).toEqual([{ role: 'user', content: 'Второй разговор' }]);

    // After /new the current conversation is an empty one; the old one keeps its turns.
    const second = await conversations.list(20);
    expect(second.map((conversation) => conversation.title)).toEqual([null, 'Старый вопрос']);
    expect(await conversations.messages(second[0]!.id)).toEqual([]);
    expect((await conversations.messages(second[1]!.id)).map((m) => m.text)).toEqual(['Старый вопрос', 'Старый ответ']);

    expect(await conversations.list(30)).toEqual([]);
    const [{ count }] = (await sql<{ count: string }>`SELECT count(*) FROM conversation_messages`.execute(upgraded.db))
      .rows as [{ count: string }];
    expect(Number(count)).toBe(5);
    await expect(sql`SELECT 1 FROM turns`.execute(upgraded.db)).rejects.toThrow(/turns/);
  } finally {
    await upgraded.close();
  }
});
