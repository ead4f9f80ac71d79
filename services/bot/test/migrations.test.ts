import { afterAll, expect, test } from '@jest/globals';
import { createLogger, openDatabase } from '@gpt/kit';
import { createTestDatabase, dropTestDatabase } from '@gpt/kit/testing';
import { sql } from 'kysely';
import { migrations } from '../src/data/migrations';
import { chatsRepository } from '../src/data/chats.repository';
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
