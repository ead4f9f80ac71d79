/**
 * The bare bot, the reference of the bot bench's CPU figure: a process that makes only the calls an
 * answered question needs, with the libraries the bot uses, and does nothing else. bench/bot.mjs
 * runs the same crowd against it that it ran against the bot, so the bot's CPU per answered message
 * can be read beside the least those calls cost on this machine.
 *
 * Per text message: the chat's row and the user's limit (Redis), the conversation, a hold in billing
 * (refused: one message), the placeholder, the generation's row, the model's stream through `openai`,
 * the final edit, the turns written as the generation's row goes, and the record in chat-history.
 * Billing's credits.changed events are delivered and acknowledged. Telegram's 30 messages a second,
 * and one a second to a chat, are kept by a plain pacer. No retries, no logs, no checks of what the
 * services answer: what the bot does beyond this is what its figure has above this one's.
 *
 * Its environment is the bot's (TELEGRAM_*, LLM_API_URL, *_URL, BOT_API_KEY, AMQP_*, REDIS_URL,
 * BOT_DATABASE_URL, PORT) and HOLD_CREDITS, the hold of one question. Ready when GET /readyz answers.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { run, sequentialize } from '@grammyjs/runner';
import amqp from 'amqplib';
import { Bot } from 'grammy';
import Redis from 'ioredis';
import { Kysely, PostgresDialect, sql } from 'kysely';
import OpenAI from 'openai';
import pg from 'pg';
import { RateLimiterRedis } from 'rate-limiter-flexible';

const env = process.env;
const SEND_INTERVAL_MS = 1000 / 30;
const CHAT_SEND_INTERVAL_MS = 1000;

const db = new Kysely({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: env.BOT_DATABASE_URL }) }),
});
await sql`create table chats (telegram_id bigint primary key, model text not null)`.execute(db);
await sql`create table turns (id bigserial primary key, telegram_id bigint not null, role text not null, content text not null)`.execute(
  db,
);
await sql`create table generations (id uuid primary key, telegram_id bigint not null, message_id integer not null, hold_id uuid not null)`.execute(
  db,
);

const limiter = new RateLimiterRedis({
  storeClient: new Redis(env.REDIS_URL),
  keyPrefix: `${env.REDIS_KEY_PREFIX}bare-bot`,
  points: 100,
  duration: 60,
});
const model = new OpenAI({ baseURL: env.LLM_API_URL, apiKey: env.LLM_API_KEY });

const events = await (await amqp.connect(env.AMQP_URL)).createChannel();
const { queue } = await events.assertQueue('', { exclusive: true });
await events.bindQueue(queue, env.AMQP_EXCHANGE, 'credits.changed');
await events.prefetch(16);
await events.consume(queue, (delivery) => {
  JSON.parse(delivery.content.toString());
  events.ack(delivery);
});

/** The next free slot under Telegram's 30 messages a second, and each chat's under one a second. */
let nextSendAt = 0;
const nextChatSendAt = new Map();
const waitUntil = async (at) => {
  if (at > Date.now()) await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
};
async function paced(chatId, send) {
  const chatAt = Math.max(Date.now(), nextChatSendAt.get(chatId) ?? 0);
  nextChatSendAt.set(chatId, chatAt + CHAT_SEND_INTERVAL_MS);
  await waitUntil(chatAt);
  const at = Math.max(Date.now(), nextSendAt);
  nextSendAt = at + SEND_INTERVAL_MS;
  await waitUntil(at);
  return send();
}

async function callService(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Bot-Key': env.BOT_API_KEY, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const bot = new Bot(env.TELEGRAM_BOT_TOKEN, { client: { apiRoot: env.TELEGRAM_API_URL } });
bot.use(sequentialize((ctx) => String(ctx.chat?.id)));
bot.command('start', async (ctx) => {
  await callService(`${env.AUTH_URL}/api/bot/users`, { telegram_id: ctx.chat.id, first_name: ctx.from.first_name });
  await db
    .insertInto('chats')
    .values({ telegram_id: ctx.chat.id, model: 'gpt-4o-mini' })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  await paced(ctx.chat.id, () => ctx.api.sendMessage(ctx.chat.id, 'Здравствуйте'));
});
bot.on('message:text', async (ctx) => {
  const chatId = ctx.chat.id;
  const question = ctx.message.text;
  const chat = await db.selectFrom('chats').selectAll().where('telegram_id', '=', chatId).executeTakeFirstOrThrow();
  await limiter.consume(String(chatId));
  const turns = await db
    .selectFrom('turns')
    .select(['role', 'content'])
    .where('telegram_id', '=', chatId)
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  const hold = await callService(`${env.BILLING_URL}/api/bot/holds`, {
    telegram_id: chatId,
    amount: Number(env.HOLD_CREDITS),
  });
  if (hold.status === 402) {
    await paced(chatId, () => ctx.api.sendMessage(chatId, 'Недостаточно кредитов'));
    return;
  }
  const placeholder = await paced(chatId, () => ctx.api.sendMessage(chatId, '⏳ Думаю…'));
  const generation = randomUUID();
  await db
    .insertInto('generations')
    .values({ id: generation, telegram_id: chatId, message_id: placeholder.message_id, hold_id: hold.body.hold_id })
    .execute();
  const stream = await model.chat.completions.create({
    model: chat.model,
    stream: true,
    stream_options: { include_usage: true },
    messages: [...turns.reverse(), { role: 'user', content: question }],
  });
  let answer = '';
  let usage;
  for await (const chunk of stream) {
    answer += chunk.choices[0]?.delta?.content ?? '';
    usage = chunk.usage ?? usage;
  }
  await paced(chatId, () => ctx.api.editMessageText(chatId, placeholder.message_id, answer));
  await sql`with done as (delete from generations where id = ${generation})
    insert into turns (telegram_id, role, content) values (${chatId}, 'user', ${question}), (${chatId}, 'assistant', ${answer})`.execute(
    db,
  );
  await callService(
    `${env.CHAT_HISTORY_URL}/api/bot/messages`,
    {
      telegram_id: chatId,
      model: chat.model,
      user_message: question,
      bot_response: answer,
      input_tokens: usage?.prompt_tokens ?? 0,
      output_tokens: usage?.completion_tokens ?? 0,
      hold_id: hold.body.hold_id,
    },
    { 'Idempotency-Key': hold.body.hold_id },
  );
});

const runner = run(bot);
const server = http.createServer((_req, res) => res.end('ok')).listen(Number(env.PORT), '127.0.0.1');
process.once('SIGTERM', async () => {
  server.close();
  await runner.stop();
  process.exit(0);
});
