import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { FakeUser } from '@gpt/telegram-sandbox/testing';
import { silentOggOpus } from '../src/engine/ogg-opus';
import { m4a, mp3 } from './support/audio-files';
import { conversations } from './support/conversation';
import { startBotHarness, type BotHarness } from './support/harness';

/**
 * Voice in and out, chat modes, personal instructions and replies, through a fake Telegram and model
 * API, on the harness: what the bot records (with the voice parts chat-history prices) goes to the
 * stand-in services.
 */
let bot: BotHarness;

beforeAll(async () => {
  bot = await startBotHarness();
  // The default mode every installation has (chat-history seeds it).
  bot.services.addMode({
    name: 'Ассистент',
    emoji: '🤖',
    description: 'Отвечает на любые вопросы',
    system_prompt: 'Ты — полезный ассистент в Telegram.',
    sort_order: 10,
    is_default: true,
  });
});
afterAll(() => bot?.close());
afterEach(() => {
  bot.openai.reply((messages) => `Ответ на: ${String(messages.at(-1)?.content)}`);
  bot.openai.transcribeAs('Распознанная речь');
  bot.openai.failNext(500, 0);
});

const { say, reply, press, buttonsOf, startedUser } = conversations(() => bot);

/** The user records a voice message; answers the mark to wait for the bot's reply from. */
function speakTo(user: FakeUser, seconds: number, audio = silentOggOpus(seconds)): number {
  const mark = bot.telegram.calls.length;
  bot.telegram.sendVoice(user, audio, { duration: seconds });
  return mark;
}

const chatRequests = () => bot.openai.requests.filter((request) => request.path === '/v1/chat/completions');
const lastChatMessages = () => chatRequests().at(-1)!.messages;
const contentOf = (message: ChatCompletionMessageParam | undefined) => String(message?.content ?? '');

describe('voice messages', () => {
  test('the hold and the charge count the seconds of the audio, not the duration the client claims', async () => {
    const { user } = await startedUser(10_000);
    bot.openai.transcribeAs('Длинная запись');
    await reply(user, '🎙 Длинная запись', speakTo(user, 1, silentOggOpus(120)));
    const [row] = await bot.services.recordedOf(user.id);
    expect(row!.body).toMatchObject({ audio_seconds: 120 });
    // 120 s at 0.006 $ a minute.
    expect(row!.dollars.transcription_cost).toBe('0.012000000000');
  });

  test('a voice message is transcribed in Russian, shown, answered in the conversation and charged for both parts', async () => {
    const { user } = await startedUser(10_000);
    bot.openai.transcribeAs('Какая столица Франции?');
    const mark = speakTo(user, 30);
    await reply(user, '🎙 Какая столица Франции?', mark);
    await reply(user, 'Ответ на: Какая столица Франции?', mark);
    const [row] = await bot.services.recordedOf(user.id);

    const transcription = bot.openai.requests.findLast((request) => request.path === '/v1/audio/transcriptions')!;
    expect(transcription.body).toMatchObject({ model: 'whisper-1', language: 'ru' });
    expect(transcription.file?.bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(contentOf(lastChatMessages().at(-1))).toBe('Какая столица Франции?');

    expect(row!.body).toMatchObject({
      status: 'success',
      user_message: 'Какая столица Франции?',
      transcription_model: 'whisper-1',
      audio_seconds: 30,
    });
    // 30 s at 0.006 $ a minute = 0.003 $, on top of the tokens.
    expect(row!.dollars.transcription_cost).toBe('0.003000000000');
    expect(row!.cost).toBeGreaterThanOrEqual(57);
    expect(await bot.services.balance(user.id)).toMatchObject({
      available_credits: 10_000 - row!.cost,
      held_credits: 0,
    });

    // The next text continues the same conversation.
    await reply(user, 'Ответ на: А Германии?', say(user, 'А Германии?'));
    expect(lastChatMessages().map(contentOf)).toEqual(
      expect.arrayContaining(['Какая столица Франции?', 'Ответ на: Какая столица Франции?', 'А Германии?']),
    );
  });

  test('a failed transcription, silence, an unreadable file or a too long message costs nothing', async () => {
    const { user } = await startedUser(10_000);
    bot.openai.failNext(400);
    await reply(user, 'Не удалось распознать аудио', speakTo(user, 5));
    bot.openai.transcribeAs('');
    await reply(user, 'не слышно речи', speakTo(user, 5));

    const calls = bot.openai.requests.length;
    // A file whose length cannot be read is refused before the model, whatever it claims.
    await reply(user, 'Не удалось распознать аудио', speakTo(user, 5, Buffer.from('это не звук')));
    await reply(user, 'Сообщение слишком длинное: я распознаю голосовые и аудио до 5 мин', speakTo(user, 301));
    // The audio's own length counts: 301 s of sound claiming 1 s is as long.
    await reply(user, 'Сообщение слишком длинное', speakTo(user, 1, silentOggOpus(301)));
    expect(bot.openai.requests.length).toBe(calls);

    expect(await bot.services.balance(user.id)).toMatchObject({ available_credits: 10_000, held_credits: 0 });
    const rows = await bot.services.recordedOf(user.id, 2);
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.body.status === 'error' && row.cost === 0)).toBe(true);
    expect(chatRequests().some((request) => request.messages.some((m) => contentOf(m) === ''))).toBe(false);
  });

  test('an audio file is transcribed like a voice message', async () => {
    const { user } = await startedUser(10_000);
    bot.openai.transcribeAs('Текст из файла');
    const mark = bot.telegram.calls.length;
    bot.telegram.sendAudio(user, silentOggOpus(3), { duration: 3, file_name: 'memo.ogg', mime_type: 'audio/ogg' });
    await reply(user, 'Ответ на: Текст из файла', mark);
    expect(bot.openai.requests.findLast((r) => r.path === '/v1/audio/transcriptions')?.file?.name).toBe('memo.ogg');
  });

  test('an MP3 or M4A recording is answered and billed on its own length, not the duration it claims', async () => {
    const { user } = await startedUser(10_000);
    bot.openai.transcribeAs('Запись с телефона');
    let mark = bot.telegram.calls.length;
    bot.telegram.sendAudio(user, mp3(12), { duration: 1, file_name: 'memo.mp3', mime_type: 'audio/mpeg' });
    await reply(user, 'Ответ на: Запись с телефона', mark);
    mark = bot.telegram.calls.length;
    bot.telegram.sendAudio(user, m4a(40), { duration: 1, file_name: 'memo.m4a', mime_type: 'audio/mp4' });
    await reply(user, 'Ответ на: Запись с телефона', mark);
    const rows = await bot.services.recordedOf(user.id, 2);
    expect(rows.map((row) => row.body.audio_seconds).sort((a, b) => Number(a) - Number(b))).toEqual([12, 40]);
    expect(bot.openai.requests.findLast((r) => r.path === '/v1/audio/transcriptions')?.file?.name).toBe('memo.m4a');
  });

  test('twenty voice messages at once from a user who can afford five: five answers, balance never below zero', async () => {
    const created = bot.services.addModel('voice-exact-model', {
      input_price_per_1m: '0.000000',
      output_price_per_1m: '10.000000',
    });
    // 1 024 output tokens at 10 $ per 1M + 10 s at 0.006 $ a minute = 0.01124 $ = ⌈0.01124 × 95 × 2 × 100⌉ = 214 a hold.
    const { user } = await startedUser(5 * 214);
    await reply(user, 'Выберите модель', say(user, '/model'));
    await reply(
      user,
      'Теперь отвечает модель voice-exact-model',
      press(user, 'Выберите модель', `model:${created.id}`),
    );

    bot.openai.reply(() => 'слово '.repeat(1500));
    const chats = chatRequests().length;
    for (let i = 0; i < 20; i++) speakTo(user, 10);
    const refusals = () =>
      bot.telegram
        .chatLog(user.id)
        .filter((entry) => entry.from === 'bot' && entry.text.includes('Недостаточно кредитов'));
    await bot.telegram.waitFor('sendMessage', () => refusals().length === 15, 60_000);
    const rows = await bot.services.recordedOf(user.id, 5);

    expect(chatRequests().length - chats).toBe(5);
    expect(rows.filter((row) => row.body.status === 'success' && row.body.audio_seconds === 10)).toHaveLength(5);
    expect(await bot.services.balance(user.id)).toMatchObject({ credits: 0, held_credits: 0, available_credits: 0 });
  }, 90_000);
});

describe('spoken answers', () => {
  test('off by default; turned on in /settings, each answer also comes as a voice message, priced per character', async () => {
    const { user } = await startedUser(100_000);
    await reply(user, 'Ответ на: Первый', say(user, 'Первый'));
    expect(
      bot.telegram.calls.some((call) => call.method === 'sendVoice' && Number(call.params.chat_id) === user.id),
    ).toBe(false);

    const settings = await reply(user, 'Отвечать голосом: выключено', say(user, '/settings'));
    expect(buttonsOf(settings).map((button) => button.text)).toEqual([
      '🔇 Отвечать голосом: выкл',
      '📰 Новости и акции: вкл',
    ]);
    await reply(user, 'Теперь я отвечаю и голосом', press(user, 'Настройки', 'voice:on'));

    bot.openai.reply('**Париж** — столица Франции.');
    const mark = say(user, 'Столица Франции?');
    const voice = await bot.telegram.waitFor(
      'sendVoice',
      (call) => Number(call.params.chat_id) === user.id && bot.telegram.calls.indexOf(call) >= mark,
      20_000,
    );
    expect(voice.ok).toBe(true);
    const speech = bot.openai.requests.findLast((request) => request.path === '/v1/audio/speech')!;
    expect(speech.body).toMatchObject({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Париж — столица Франции.',
      response_format: 'opus',
    });
    const sent = bot.telegram.chatLog(user.id).findLast((entry) => entry.message.voice);
    expect(bot.telegram.file(sent!.message.voice!.file_id)?.bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    const row = (await bot.services.recordedOf(user.id, 2)).at(-1)!;
    expect(row.body).toMatchObject({
      bot_response: '**Париж** — столица Франции.',
      speech_model: 'tts-1',
      speech_characters: 24,
    });
    // 24 characters at 0.015 $ per 1 000 = 0.00036 $.
    expect(row.dollars.speech_cost).toBe('0.000360000000');

    await reply(user, 'Теперь я отвечаю только текстом', press(user, 'Теперь я отвечаю и голосом', 'voice:off'));
    const voices = bot.telegram.calls.filter((call) => call.method === 'sendVoice').length;
    bot.openai.reply('Текстом.');
    await reply(user, 'Текстом.', say(user, 'Ещё'));
    expect(bot.telegram.calls.filter((call) => call.method === 'sendVoice')).toHaveLength(voices);
  });
});

describe('modes, personal instructions and replies', () => {
  test("an admin-created mode's prompt reaches the model first, the user's instructions after it, and the history shows the mode", async () => {
    const created = bot.services.addMode({
      name: 'Юрист',
      emoji: '⚖️',
      description: 'Объясняет законы',
      system_prompt: 'Ты — юрист. Ссылайся на статьи закона.',
      sort_order: 5,
    });
    const { user } = await startedUser(100_000);

    const list = await reply(user, 'Выберите режим', say(user, '/mode'));
    expect(String(list.params.text)).toContain('<b>Юрист</b> — Объясняет законы');
    expect(buttonsOf(list).map((button) => button.text)).toEqual(
      expect.arrayContaining(['✅ 🤖 Ассистент', '⚖️ Юрист']),
    );
    await reply(user, 'Режим Юрист. Начали новый разговор', press(user, 'Выберите режим', `mode:${created.id}`));
    // The list itself moves its ✅ to the choice (edited in place).
    const edited = bot.telegram.calls.findLast(
      (call) => call.method === 'editMessageText' && String(call.params.text).includes('Выберите режим'),
    );
    expect(buttonsOf(edited!).map((button) => button.text)).toEqual(
      expect.arrayContaining(['🤖 Ассистент', '✅ ⚖️ Юрист']),
    );

    await reply(user, 'Личные инструкции', say(user, '/instructions'));
    await reply(user, 'Инструкции сохранены', say(user, 'отвечай кратко'));
    await reply(user, 'Ответ на: Можно ли вернуть товар?', say(user, 'Можно ли вернуть товар?'));
    const messages = lastChatMessages();
    expect(messages[0]).toEqual({ role: 'system', content: 'Ты — юрист. Ссылайся на статьи закона.' });
    expect(messages[1]?.role).toBe('system');
    expect(contentOf(messages[1])).toContain('отвечай кратко');
    expect((await bot.services.recordedOf(user.id)).at(-1)!.body).toMatchObject({ mode: 'Юрист' });

    const shown = await reply(user, 'Ваши личные инструкции', say(user, '/instructions'));
    expect(String(shown.params.text)).toContain('отвечай кратко');
    expect(buttonsOf(shown).map((button) => button.text)).toEqual(['✏️ Изменить', '🗑 Удалить']);
    await reply(user, 'Напишите одним сообщением', press(user, 'Ваши личные инструкции', 'instructions:edit'));
    await reply(user, 'Слишком длинно: 1 001 символов', say(user, 'я'.repeat(1001)));
    await reply(user, 'Инструкции сохранены', say(user, 'я врач'));
    await reply(user, 'Инструкции удалены', press(user, 'Ваши личные инструкции', 'instructions:delete'));
    await reply(user, 'Ответ на: Ещё вопрос', say(user, 'Ещё вопрос'));
    expect(lastChatMessages().filter((message) => message.role === 'system')).toHaveLength(1);

    const balance = await reply(user, 'Доступно', say(user, '/balance'));
    expect(String(balance.params.text)).toContain('Режим: <b>⚖️ Юрист</b>');
  });

  test("replying to one of the bot's earlier answers puts it into the call, even after /new", async () => {
    const { user } = await startedUser(100_000);
    bot.openai.reply('Рецепт: мука, яйца, молоко.');
    await reply(user, 'Рецепт: мука, яйца, молоко.', say(user, 'Как испечь блины?'));
    const answer = bot.telegram.chatLog(user.id).findLast((entry) => entry.text.startsWith('Рецепт'))!;
    await reply(user, 'Начали новый разговор', say(user, '/new'));

    bot.openai.reply('Можно без яиц.');
    const mark = bot.telegram.calls.length;
    bot.telegram.sendText(user, 'А без яиц?', answer.message_id);
    await reply(user, 'Можно без яиц.', mark);
    const messages = lastChatMessages();
    expect(messages.map(contentOf)).not.toContain('Как испечь блины?');
    expect(messages.at(-2)).toMatchObject({ role: 'system' });
    expect(contentOf(messages.at(-2))).toContain('Рецепт: мука, яйца, молоко.');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'А без яиц?' });
  });
});
