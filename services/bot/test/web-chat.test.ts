import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { apiPath } from '@gpt/contracts/routes';
import type { ChatConversation, ChatConversationDetail } from '@gpt/contracts';
import { signAccessToken } from '@gpt/kit';
import { TEST_SECRETS } from '@gpt/kit/testing';
import { conversationsRepository } from '../src/data/conversations.repository';
import { conversations } from './support/conversation';
import { startBotHarness, type BotHarness } from './support/harness';
import { webChat } from './support/web-chat';

/**
 * The web chat, the assistant's second door (docs/architecture.md, The assistant), on the harness: the
 * same conversations as the bot's, answers as jobs streamed by server-sent events, «Остановить», search
 * and export, and what another user may not see.
 */
let bot: BotHarness;

beforeAll(async () => {
  bot = await startBotHarness();
});
afterAll(() => bot?.close());
afterEach(() => {
  bot.openai.reply((messages) => `Ответ на: ${String(messages.at(-1)?.content)}`);
  bot.openai.slow(0);
});

const { say, reply, startedUser } = conversations(() => bot);

/** A Telegram user who started the bot, with credits, signed in on the site as themselves. */
async function personWithBrowser(credits = 100_000) {
  const { user, userId } = await startedUser(credits);
  const token = signAccessToken({ sub: String(userId), role: 'user', ver: 0 }, TEST_SECRETS.JWT_SECRET);
  return { user, userId, web: webChat(bot.bot.url, token) };
}

async function currentConversation(web: ReturnType<typeof webChat>): Promise<ChatConversation> {
  const list = await web.conversations();
  expect(list.status).toBe(200);
  const items = list.json.items as ChatConversation[];
  const current = items.find((item) => item.current);
  expect(current).toBeDefined();
  return current!;
}

const detailOf = async (web: ReturnType<typeof webChat>, id: string) =>
  (await web.conversation(id)).json as unknown as ChatConversationDetail;

/** Ten words, one chunk each. */
const TEN_WORDS = 'один два три четыре пять шесть семь восемь девять десять';

describe('one conversation, two doors', () => {
  test('a question asked in Telegram is read on the web, marked with its door', async () => {
    const { user, web } = await personWithBrowser();
    await reply(user, 'Ответ на: Привет из Telegram', say(user, 'Привет из Telegram'));
    const current = await currentConversation(web);
    expect(current).toMatchObject({ title: 'Привет из Telegram', lastDoor: 'telegram' });
    const detail = await detailOf(web, current.id);
    expect(detail.messages.map((m) => [m.role, m.text, m.door, m.status])).toEqual([
      ['user', 'Привет из Telegram', 'telegram', 'done'],
      ['assistant', 'Ответ на: Привет из Telegram', 'telegram', 'done'],
    ]);
    expect(detail.messages[1]!.model).toBe('gpt-4o-mini');
    expect(detail.messages[1]!.cost).toBeGreaterThan(0);
    expect(detail.running).toBeNull();
  });

  test('a web question and then a Telegram one both go to the model, in one conversation', async () => {
    const { user, web } = await personWithBrowser();
    const { id } = (await web.newConversation()).json as unknown as ChatConversation;
    const asked = await web.ask(id, 'Запомни слово: апельсин');
    expect(asked.status).toBe(202);
    const stream = await web.events(String(asked.json.answerId));
    expect((await stream.untilDone()).done.status).toBe('done');

    await reply(user, 'Ответ на: Какое слово?', say(user, 'Какое слово?'));
    const sent = bot.openai.requests.at(-1)!.messages.map((message) => message.content);
    expect(sent).toContain('Запомни слово: апельсин');
    expect(sent).toContain('Ответ на: Запомни слово: апельсин');
    expect(sent.at(-1)).toBe('Какое слово?');

    const detail = await detailOf(web, id);
    expect(detail.messages.map((m) => m.door)).toEqual(['web', 'web', 'telegram', 'telegram']);
    expect(detail.conversation.current).toBe(true);
    // The charge was recorded with its door for the admin history.
    const recorded = await bot.services.recordedOf(user.id, 2);
    expect(recorded.map((entry) => entry.body.door)).toEqual(['web', 'telegram']);
  });

  test('/new and «Новый чат» start the conversation the other door continues', async () => {
    const { user, web } = await personWithBrowser();
    await reply(user, 'Ответ на: Первый', say(user, 'Первый'));
    await reply(user, 'Начали новый разговор', say(user, '/new'));
    const fresh = await currentConversation(web);
    expect(fresh.title).toBe('Новый чат');
    expect((await detailOf(web, fresh.id)).messages).toEqual([]);

    const { id } = (await web.newConversation()).json as unknown as ChatConversation;
    // An empty current conversation is reused, not piled up.
    expect(id).toBe(fresh.id);
  });
});

describe('an answer on the web is a job on the server', () => {
  test('its text streams before it completes, and the end carries the cost and the message', async () => {
    const { web } = await personWithBrowser();
    const { id } = (await web.newConversation()).json as unknown as ChatConversation;
    bot.openai.slow(150);
    bot.openai.reply(TEN_WORDS);
    const asked = await web.ask(id, 'Посчитай до десяти');
    expect(asked.json.message).toMatchObject({ role: 'user', text: 'Посчитай до десяти', door: 'web' });
    const stream = await web.events(String(asked.json.answerId));
    expect(stream.status).toBe(200);
    const first = await stream.next();
    expect(first.event).toBe('delta');
    // The first words arrived while the model was still answering.
    expect((await detailOf(web, id)).running).toEqual({ answerId: asked.json.answerId });
    const rest = await stream.untilDone();
    expect((first.data as { text: string }).text + rest.text).toBe(TEN_WORDS);
    expect(rest.done).toMatchObject({ status: 'done', model: 'gpt-4o-mini' });
    expect(rest.done.cost).toBeGreaterThan(0);
    expect(rest.done.message).toMatchObject({ role: 'assistant', text: TEN_WORDS, status: 'done', door: 'web' });
  });

  test('a reader that reconnects with Last-Event-ID gets the rest once, with no repeated text', async () => {
    const { web } = await personWithBrowser();
    const { id } = (await web.newConversation()).json as unknown as ChatConversation;
    bot.openai.slow(120);
    bot.openai.reply(TEN_WORDS);
    const answerId = String((await web.ask(id, 'Считай')).json.answerId);
    const first = await web.events(answerId);
    const before = await first.next();
    const offset = Number(before.id);
    expect(offset).toBe((before.data as { text: string }).text.length);
    // The tab is closed mid-answer; the answer goes on without it.
    first.close();
    const again = await web.events(answerId, offset);
    const rest = await again.untilDone();
    expect((before.data as { text: string }).text + rest.text).toBe(TEN_WORDS);
    expect(rest.lastId).toBe(String(TEN_WORDS.length));
    // A reader of an ended answer gets what it lacks and the end.
    const late = await web.events(answerId, 5);
    expect(await late.untilDone()).toMatchObject({ text: TEN_WORDS.slice(5), done: { status: 'done' } });
  });

  test('«Остановить» aborts the model call upstream and charges only what was said', async () => {
    const { user, web } = await personWithBrowser();
    await web.call('PUT', apiPath('putChatPreferences'), { model: 'gpt-4o' });
    // The whole answer (some 3 000 tokens), for what it costs.
    const long = Array.from({ length: 600 }, (_, i) => `длинноеслово${i}`).join(' ');
    bot.openai.reply(long);
    const first = (await web.newConversation()).json as unknown as ChatConversation;
    const whole = await (await web.events(String((await web.ask(first.id, 'Скажи много')).json.answerId))).untilDone();
    expect(whole.text).toBe(long);

    bot.openai.slow(100);
    const second = (await web.call('POST', apiPath('postChatConversations'), {})).json as unknown as ChatConversation;
    const answerId = String((await web.ask(second.id, 'Скажи много')).json.answerId);
    const stream = await web.events(answerId);
    await stream.next();
    const closed = bot.openai.streamClosedByClient();
    expect((await web.stop(answerId)).status).toBe(202);
    await closed;
    const end = await stream.untilDone();
    expect(end.done.status).toBe('stopped');
    expect(end.done.message.text.length).toBeGreaterThan(0);
    expect(end.done.message.text.length).toBeLessThan(long.length / 10);
    expect(end.done.cost).toBeLessThan(whole.done.cost! / 10);
    const recorded = await bot.services.recordedOf(user.id, 2);
    expect(recorded[1]!.cost).toBeLessThan(recorded[0]!.cost / 10);
    expect(recorded[1]!.body.bot_response).toBe(end.done.message.text);
    expect(bot.services.openHolds()).toBe(0);
  });

  test('«Остановить» asked of another replica reaches the answer through the database at its next save', async () => {
    const { web } = await personWithBrowser();
    const { id } = (await web.newConversation()).json as unknown as ChatConversation;
    bot.openai.slow(100);
    bot.openai.reply(TEN_WORDS.repeat(5));
    const answerId = String((await web.ask(id, 'Длинный ответ')).json.answerId);
    const stream = await web.events(answerId);
    await stream.next();
    const closed = bot.openai.streamClosedByClient();
    // What a replica that does not run the answer does with «Остановить».
    await conversationsRepository(bot.bot.deps.db).requestStop(answerId);
    await closed;
    expect((await stream.untilDone()).done.status).toBe('stopped');
  });

  test('an answer another replica runs is read from the database as it is saved, each piece once', async () => {
    const { userId, web } = await personWithBrowser();
    const { id } = (await web.newConversation()).json as unknown as ChatConversation;
    // Another replica's answer: its rows exist here, its job does not.
    const repository = conversationsRepository(bot.bot.deps.db);
    const begun = await repository.beginExchange({
      conversationId: id,
      userId,
      door: 'web',
      question: 'Вопрос на другой реплике',
      model: 'gpt-4o-mini',
    });
    const stream = await web.events(begun!.answerId);
    await repository.saveProgress(begun!.answerId, 'Первая часть');
    expect(await stream.next()).toMatchObject({ event: 'delta', id: '12', data: { text: 'Первая часть' } });
    await repository.saveProgress(begun!.answerId, 'Первая часть, вторая');
    await repository.finishAnswer(begun!.answerId, { text: 'Первая часть, вторая и конец.', status: 'done', cost: 7 });
    const end = await stream.untilDone();
    expect('Первая часть' + end.text).toBe('Первая часть, вторая и конец.');
    expect(end.done).toMatchObject({ status: 'done', cost: 7 });
  });

  test('a second question while one is answered is refused (409) and charged nothing', async () => {
    const { user, web } = await personWithBrowser();
    const { id } = (await web.newConversation()).json as unknown as ChatConversation;
    bot.openai.slow(100);
    bot.openai.reply(TEN_WORDS);
    const first = await web.ask(id, 'Первый вопрос');
    const second = await web.ask(id, 'Второй вопрос');
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({
      code: 'answer_running',
      error: 'Дождитесь ответа на предыдущий вопрос или остановите его.',
    });
    await (await web.events(String(first.json.answerId))).untilDone();
    await bot.services.recordedOf(user.id, 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bot.services.recorded.filter((entry) => entry.body.telegram_id === user.id)).toHaveLength(1);
    expect(bot.services.openHolds()).toBe(0);
    expect((await detailOf(web, id)).messages.map((m) => m.text)).toEqual(['Первый вопрос', TEN_WORDS]);
  });

  test('refusals: no credits in the bot’s words (402), an empty or too long question (400)', async () => {
    const { web } = await personWithBrowser(0);
    const { id } = (await web.newConversation()).json as unknown as ChatConversation;
    const poor = await web.ask(id, 'Вопрос без кредитов');
    expect(poor.status).toBe(402);
    expect(poor.json.code).toBe('insufficient_credits');
    expect(poor.json.error).toMatch(/^😔 Недостаточно кредитов для ответа\./);
    expect((await detailOf(web, id)).messages).toEqual([]);

    const long = await web.ask(id, 'я'.repeat(10_001));
    expect(long.status).toBe(400);
    expect(long.json.error).toBe('Сообщение слишком длинное: не больше 10 000 символов.');
    expect((await web.ask(id, '   ')).status).toBe(400);
  });
});

describe('search, export, rename and delete', () => {
  test('«Поиск по чатам» finds a Russian word in another form (PostgreSQL full text, Russian)', async () => {
    const { user, web } = await personWithBrowser();
    await reply(user, 'Ответ на: Моя кошка спит на окне', say(user, 'Моя кошка спит на окне'));
    const found = await web.call('GET', `${apiPath('getChatSearch')}?q=${encodeURIComponent('кошки')}`);
    expect(found.status).toBe(200);
    const items = found.json.items as { conversationId: string; snippet: string; title: string }[];
    expect(items.length).toBeGreaterThanOrEqual(1);
    expect(items[0]!.snippet).toContain('**кошка**');
    expect(items[0]!.title).toBe('Моя кошка спит на окне');
    expect((await web.call('GET', `${apiPath('getChatSearch')}?q=`)).status).toBe(400);
  });

  test('«Экспорт» downloads the conversation as Markdown with times and models', async () => {
    const { user, web } = await personWithBrowser();
    await reply(user, 'Ответ на: Вопрос для экспорта', say(user, 'Вопрос для экспорта'));
    const { id } = await currentConversation(web);
    const file = await web.call('GET', apiPath('getChatConversationsByIdExport', { id }));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="chat-${id}.md"`);
    expect(file.text).toContain('# Вопрос для экспорта');
    expect(file.text).toMatch(/## Вы, Telegram — \d{1,2} [а-я]+ \d{4} г\. в \d{2}:\d{2}/);
    expect(file.text).toContain('## Модель gpt-4o-mini —');
    expect(file.text).toContain('Ответ на: Вопрос для экспорта');
  });

  test('rename and delete', async () => {
    const { web } = await personWithBrowser();
    const { id } = (await web.newConversation()).json as unknown as ChatConversation;
    const path = apiPath('patchChatConversationsById', { id });
    expect((await web.call('PATCH', path, { title: 'Рецепты' })).json).toMatchObject({ id, title: 'Рецепты' });
    expect((await web.call('PATCH', path, { title: '' })).status).toBe(400);
    expect((await web.call('DELETE', path)).status).toBe(204);
    expect((await web.conversation(id)).status).toBe(404);
  });
});

test('another user’s conversation or answer is 404, as one that does not exist', async () => {
  const owner = await personWithBrowser();
  const stranger = await personWithBrowser();
  const { id } = (await owner.web.newConversation()).json as unknown as ChatConversation;
  bot.openai.slow(50);
  const answerId = String((await owner.web.ask(id, 'Секретный вопрос')).json.answerId);
  const notFound = { error: 'Чат не найден.' };
  expect(await stranger.web.conversation(id)).toMatchObject({ status: 404, json: notFound });
  expect((await stranger.web.ask(id, 'Чужой чат')).status).toBe(404);
  expect((await stranger.web.call('GET', apiPath('getChatConversationsByIdExport', { id }))).status).toBe(404);
  expect((await stranger.web.call('DELETE', apiPath('deleteChatConversationsById', { id }))).status).toBe(404);
  expect((await stranger.web.stop(answerId)).status).toBe(404);
  expect((await stranger.web.events(answerId)).status).toBe(404);
  expect((await stranger.web.conversation('no-such-id')).status).toBe(404);
  const search = await stranger.web.call('GET', `${apiPath('getChatSearch')}?q=${encodeURIComponent('секретный')}`);
  expect(search.json.items).toEqual([]);
  await (await owner.web.events(answerId)).untilDone();
});

test('preferences are the bot’s: a model chosen on the web answers in Telegram', async () => {
  const { user, web } = await personWithBrowser();
  const put = await web.call('PUT', apiPath('putChatPreferences'), { model: 'gpt-4o', instructions: 'Кратко' });
  expect(put.json).toMatchObject({ model: 'gpt-4o', instructions: 'Кратко' });
  expect((await web.call('PUT', apiPath('putChatPreferences'), { model: 'нет-такой' })).status).toBe(400);
  await reply(user, 'Ответ на: Вопрос', say(user, 'Вопрос'));
  const request = bot.openai.requests.at(-1)!;
  expect(request.body.model).toBe('gpt-4o');
  expect(JSON.stringify(request.messages)).toContain('Кратко');
});

test('/web gives a single-use sign-in link with «🌐 Открыть в браузере»', async () => {
  const { user } = await personWithBrowser();
  const answer = await reply(user, 'открыть этот разговор в браузере', say(user, '/web'));
  // A button to the link, or (Telegram takes no button to a local address) the link under the button's name.
  const shown = `${JSON.stringify(answer.params.reply_markup ?? {})} ${String(answer.params.text)}`;
  expect(shown).toContain('🌐 Открыть в браузере');
  expect(shown).toMatch(/\/telegram-sign-in\/[\w-]+/);
  const welcome = await reply(user, 'Здравствуйте', say(user, '/start'));
  expect(JSON.stringify(welcome.params.reply_markup)).toContain('🌐 Открыть в браузере');
});
