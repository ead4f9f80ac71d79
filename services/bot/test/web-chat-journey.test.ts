import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { apiPath } from '@gpt/contracts/routes';
import type { AdminHistoryResponse, ChatConversation, ChatConversationDetail } from '@gpt/contracts';
import { balanceOf, charged, startBotStack, type BotStack } from './support/bot-stack';
import { conversations } from './support/conversation';
import { webChat } from './support/web-chat';

/**
 * The whole product through the gateway: a person starts a conversation in Telegram, signs in on the site
 * with the bot's /web link, continues it in the web chat (streamed through the gateway) and goes back to
 * Telegram, on one balance; the admin history shows each message's door.
 */
let bot: BotStack;
beforeAll(async () => {
  bot = await startBotStack();
}, 120_000);
afterAll(() => bot?.close());

const { say, reply, startedUser } = conversations(() => bot);

test('ask in Telegram, continue on the web, go back: one conversation, one balance, each message with its door', async () => {
  const { user, userId } = await startedUser(50_000);
  await reply(user, 'Ответ на: Придумай имя коту', say(user, 'Придумай имя коту'));
  await charged(bot, userId);

  // /web: the single-use link signs the Telegram user in on the site as themselves.
  const link = await reply(user, 'открыть этот разговор в браузере', say(user, '/web'));
  const token = /\/telegram-sign-in\/([\w-]+)/.exec(
    `${JSON.stringify(link.params.reply_markup ?? {})} ${String(link.params.text)}`,
  )![1]!;
  const session = await bot.api<{ token: string; user: { id: number } }>(
    'POST',
    apiPath('postAuthTelegramSignInLink'),
    {
      body: { token },
    },
  );
  expect(session.status).toBe(200);
  expect(session.body.user.id).toBe(userId);
  expect((await bot.api('POST', apiPath('postAuthTelegramSignInLink'), { body: { token } })).status).toBe(400);
  const web = webChat(bot.stack.url, session.body.token);

  // The Telegram question is on the web, in the current conversation.
  const list = (await web.conversations()).json.items as ChatConversation[];
  const current = list.find((item) => item.current)!;
  expect(current).toMatchObject({ title: 'Придумай имя коту', lastDoor: 'telegram' });

  // Asked on the web: the text streams through the gateway before the answer completes.
  bot.openai.slow(150);
  bot.openai.reply('Пусть будет Барсик, он пушистый и важный');
  const asked = await web.ask(current.id, 'А другое имя?');
  expect(asked.status).toBe(202);
  const stream = await web.events(String(asked.json.answerId));
  const first = await stream.next();
  expect(first.event).toBe('delta');
  const running = (await web.conversation(current.id)).json as unknown as ChatConversationDetail;
  expect(running.running).toEqual({ answerId: asked.json.answerId });
  const end = await stream.untilDone();
  expect((first.data as { text: string }).text + end.text).toBe('Пусть будет Барсик, он пушистый и важный');
  await charged(bot, userId);
  bot.openai.slow(0);
  bot.openai.reply((messages) => `Ответ на: ${String(messages.at(-1)?.content)}`);

  // Back in Telegram: the model gets the web question and answer too.
  await reply(user, 'Ответ на: Спасибо', say(user, 'Спасибо'));
  const sent = bot.openai.requests.at(-1)!.messages.map((message) => message.content);
  expect(sent).toEqual(
    expect.arrayContaining([
      'Придумай имя коту',
      'А другое имя?',
      'Пусть будет Барсик, он пушистый и важный',
      'Спасибо',
    ]),
  );
  await charged(bot, userId);

  const detail = (await web.conversation(current.id)).json as unknown as ChatConversationDetail;
  expect(detail.messages.map((message) => message.door)).toEqual([
    'telegram',
    'telegram',
    'web',
    'web',
    'telegram',
    'telegram',
  ]);
  // One balance: the three answers were charged as their costs say.
  const costs = detail.messages.filter((message) => message.role === 'assistant').map((message) => message.cost!);
  expect((await balanceOf(bot, user.id)).credits).toBe(50_000 - costs.reduce((sum, cost) => sum + cost, 0));

  // The admin history shows the door of each message.
  const history = await bot.api<AdminHistoryResponse>('GET', `${apiPath('getAdminHistory')}?userId=${userId}`, {
    token: bot.adminToken,
  });
  expect(history.body.history.map((message) => message.door).sort()).toEqual(['telegram', 'telegram', 'web']);
}, 120_000);
