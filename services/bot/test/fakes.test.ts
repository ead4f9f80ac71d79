import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, GrammyError, InlineKeyboard, InputFile, webhookCallback } from 'grammy';
import OpenAI, { toFile } from 'openai';
import { silentOggOpus } from '../src/engine/ogg-opus';
import { FAKE_PNG, startFakeOpenAI, type FakeOpenAI } from './support/fake-openai';
import { startFakeTelegram, type FakeTelegram, type FakeUser } from './support/fake-telegram';

const alice: FakeUser = { id: 5_000_001, first_name: 'Алиса', username: 'alice', language_code: 'ru' };

/** The fakes are checked with the real client libraries, so they are known to speak what those expect. */
describe('fake Telegram Bot API driven by grammY', () => {
  let telegram: FakeTelegram;
  let bot: Bot;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    bot = new Bot(telegram.token, { client: { apiRoot: telegram.apiUrl } });
    bot.api.config.use(autoRetry());
    bot.command('start', (ctx) =>
      ctx.reply(`<b>Привет</b>, ${ctx.match}`, {
        parse_mode: 'HTML',
        reply_markup: new InlineKeyboard().text('Ещё', 'more'),
      }),
    );
    bot.callbackQuery('more', async (ctx) => {
      await ctx.answerCallbackQuery();
      await ctx.editMessageText('Нажато');
    });
    bot.on('message:document', async (ctx) => {
      const file = await ctx.getFile();
      const bytes = await fetch(`${telegram.apiUrl}/file/bot${telegram.token}/${file.file_path}`).then((r) => r.text());
      await ctx.replyWithPhoto(new InputFile(FAKE_PNG, 'echo.png'), { caption: `Прочитано: ${bytes}` });
    });
    bot.on('message:voice', async (ctx) => {
      const file = await ctx.getFile();
      const bytes = await fetch(`${telegram.apiUrl}/file/bot${telegram.token}/${file.file_path}`).then((r) =>
        r.arrayBuffer(),
      );
      await ctx.replyWithVoice(new InputFile(Buffer.from(bytes), 'voice.ogg'), {
        duration: ctx.message.voice.duration,
        caption: `Голос ${ctx.message.voice.duration} с, ${bytes.byteLength} байт`,
      });
    });
    bot.on('message:text', (ctx) =>
      ctx.reply(
        `Эхо: ${ctx.message.text}${ctx.message.reply_to_message ? ` (ответ на «${ctx.message.reply_to_message.caption}»)` : ''}`,
      ),
    );
    void bot.start({ timeout: 30 });
  });
  afterAll(async () => {
    await bot.stop();
    await telegram.close();
  });

  test('a command with a payload is answered over long polling, and a button press edits the message', async () => {
    telegram.sendCommand(alice, '/start utm_x');
    const sent = await telegram.waitFor('sendMessage', (call) => String(call.params.text).includes('utm_x'));
    const messageId = (sent.result as { message_id: number }).message_id;
    expect(telegram.chatLog(alice.id).at(-1)).toMatchObject({ from: 'bot', text: 'Привет, utm_x' });

    telegram.pressButton(alice, messageId, 'more');
    await telegram.waitFor('editMessageText');
    expect(telegram.calls.find((call) => call.method === 'answerCallbackQuery')?.ok).toBe(true);
    expect(telegram.chatLog(alice.id).find((entry) => entry.message_id === messageId)?.text).toBe('Нажато');
  });

  test('a document is downloaded through getFile and a photo is uploaded as multipart', async () => {
    telegram.sendDocument(alice, Buffer.from('содержимое'), { file_name: 'a.txt', mime_type: 'text/plain' });
    const photo = await telegram.waitFor('sendPhoto');
    expect(photo.params.caption).toBe('Прочитано: содержимое');
    expect(telegram.chatLog(alice.id).at(-1)?.message.photo?.[0]?.file_size).toBe(FAKE_PNG.length);
  });

  test('a voice message is downloaded and a voice is sent back; a reply carries the replied message', async () => {
    const ogg = silentOggOpus(2);
    telegram.sendVoice(alice, ogg, { duration: 2 });
    const voice = await telegram.waitFor('sendVoice');
    expect(voice.params.caption).toBe(`Голос 2 с, ${ogg.length} байт`);
    const sent = telegram.chatLog(alice.id).at(-1)!;
    expect(sent.message.voice).toMatchObject({ duration: 2, mime_type: 'audio/ogg', file_size: ogg.length });
    expect(telegram.file(sent.message.voice!.file_id)?.bytes).toEqual(ogg);

    telegram.sendText(alice, 'А подробнее?', sent.message_id);
    await telegram.waitFor('sendMessage', (call) =>
      String(call.params.text).includes(`ответ на «Голос 2 с, ${ogg.length} байт»`),
    );
  });

  test('a 429 with retry_after is retried by auto-retry and the message arrives once', async () => {
    telegram.failNext('sendMessage', { error_code: 429, retry_after: 1 });
    telegram.sendText(alice, 'повтори');
    await telegram.waitFor('sendMessage', (call) => call.params.text === 'Эхо: повтори');
    const attempts = telegram.calls.filter(
      (call) => call.method === 'sendMessage' && call.params.text === 'Эхо: повтори',
    );
    expect(attempts.map((call) => call.ok)).toEqual([false, true]);
    expect(attempts[0]?.error).toEqual({ error_code: 429, description: 'Too Many Requests: retry after 1' });
  });

  test('commands, chat actions and deletions are recorded and shown as the user sees the chat', async () => {
    await bot.api.setMyCommands([{ command: 'start', description: 'Начать' }]);
    expect(telegram.commands).toEqual([{ command: 'start', description: 'Начать' }]);
    await bot.api.sendChatAction(alice.id, 'typing');
    const sent = await bot.api.sendMessage(alice.id, 'временное');
    await bot.api.deleteMessage(alice.id, sent.message_id);
    expect(telegram.chatLog(alice.id).some((entry) => entry.message_id === sent.message_id)).toBe(false);
  });

  test('the API refuses as Telegram does: unchanged edit, unknown chat, deleted message, unknown method, wrong token', async () => {
    const sent = await bot.api.sendMessage(alice.id, 'текст');
    const description = (call: Promise<unknown>) =>
      call.then(
        () => 'ok',
        (err: GrammyError) => err.description,
      );
    expect(await description(bot.api.editMessageText(alice.id, sent.message_id, 'текст'))).toMatch(
      /^Bad Request: message is not modified/,
    );
    expect(await description(bot.api.sendMessage(42, 'кому?'))).toBe('Bad Request: chat not found');
    await bot.api.deleteMessage(alice.id, sent.message_id);
    expect(await description(bot.api.deleteMessage(alice.id, sent.message_id))).toBe(
      'Bad Request: message to delete not found',
    );
    const unknown = await fetch(`${telegram.apiUrl}/bot${telegram.token}/sendHologram`, { method: 'POST' });
    expect([unknown.status, await unknown.json()]).toEqual([
      404,
      { ok: false, error_code: 404, description: 'Not Found' },
    ]);
    const stranger = await fetch(`${telegram.apiUrl}/bot1:wrong/getMe`);
    expect(stranger.status).toBe(401);
  });

  test('HTML Telegram refuses is a 400 as from the real API', async () => {
    const refused = await bot.api.sendMessage(alice.id, 'a <script> b', { parse_mode: 'HTML' }).catch((e) => e);
    expect(refused).toBeInstanceOf(GrammyError);
    expect(refused.error_code).toBe(400);
    expect(refused.description).toMatch(/^Bad Request: can't parse entities: Unsupported start tag "script"/);
  });
});

describe('fake Telegram Bot API with a webhook', () => {
  test('updates are POSTed to the webhook with the secret token', async () => {
    const telegram = await startFakeTelegram();
    const bot = new Bot(telegram.token, { client: { apiRoot: telegram.apiUrl } });
    bot.on('message:text', (ctx) => ctx.reply(`Хук: ${ctx.message.text}`));
    await bot.init();
    const server = createServer(webhookCallback(bot, 'http', { secretToken: 'hook_secret' }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await bot.api.setWebhook(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        secret_token: 'hook_secret',
      });
      telegram.sendText(alice, 'привет');
      await telegram.waitFor('sendMessage', (call) => call.params.text === 'Хук: привет');
      await expect(bot.api.getUpdates()).rejects.toThrow(/webhook is active/);
    } finally {
      server.closeAllConnections();
      server.close();
      await telegram.close();
    }
  });
});

describe('fake OpenAI API driven by the openai client', () => {
  let openai: FakeOpenAI;
  let client: OpenAI;

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    client = new OpenAI({ baseURL: openai.baseURL, apiKey: 'sk-test' });
  });
  afterAll(() => openai.close());
  afterEach(() => openai.reply((messages) => `Ответ на: ${String(messages.at(-1)?.content)}`));

  test('a stream delivers the answer in chunks and the usage at the end', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Сколько будет два плюс два?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const parts: string[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      parts.push(chunk.choices[0]?.delta.content ?? '');
      usage = chunk.usage ?? usage;
    }
    expect(parts.join('')).toBe('Ответ на: Сколько будет два плюс два?');
    expect(parts.filter(Boolean).length).toBeGreaterThan(1);
    expect(usage).toEqual({ prompt_tokens: 7, completion_tokens: 10, total_tokens: 17 });
  });

  test('a scripted answer, after a 429 the client retries, comes whole with usage', async () => {
    openai.reply('Четыре.');
    // A later failNext replaces the earlier one: one 429, not five 500s and a 429.
    openai.failNext(500, 5);
    openai.failNext(429);
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: '2+2?' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Четыре.');
    expect(completion.usage?.completion_tokens).toBe(2);
  });

  test('a stream cut short ends the iteration with an error', async () => {
    openai.reply('один два три четыре пять шесть');
    openai.failMidStream(3);
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'считай' }],
      stream: true,
    });
    const parts: string[] = [];
    const consume = async () => {
      for await (const chunk of stream) parts.push(chunk.choices[0]?.delta.content ?? '');
    };
    await expect(consume()).rejects.toThrow();
    expect(parts.join('')).toBe('один два ');
  });

  test('a vision request is recorded with its image, and an image generation answers a PNG', async () => {
    await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Что на фото?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
    });
    expect(openai.requests.at(-1)?.imageUrls).toEqual(['data:image/png;base64,AAAA']);

    const image = await client.images.generate({ model: 'gpt-image-1', prompt: 'кот в шляпе' });
    expect(Buffer.from(image.data?.[0]?.b64_json ?? '', 'base64')).toEqual(FAKE_PNG);
  });

  test('audio is transcribed from a multipart upload, non-audio refused; speech answers Ogg/Opus', async () => {
    openai.transcribeAs((file) => `Текст из ${file.name}`);
    const ogg = silentOggOpus(1);
    const transcript = await client.audio.transcriptions.create({
      model: 'whisper-1',
      language: 'ru',
      file: await toFile(ogg, 'voice.ogg', { type: 'audio/ogg' }),
    });
    expect(transcript.text).toBe('Текст из voice.ogg');
    expect(openai.requests.at(-1)).toMatchObject({
      path: '/v1/audio/transcriptions',
      body: { model: 'whisper-1', language: 'ru' },
    });
    expect(openai.requests.at(-1)?.file?.bytes).toEqual(ogg);

    await expect(
      client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(Buffer.from('not audio'), 'a.txt') }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('Invalid file format') });

    const speech = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Привет',
      response_format: 'opus',
    });
    const audio = Buffer.from(await speech.arrayBuffer());
    expect(audio.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(audio.includes(Buffer.from('OpusHead'))).toBe(true);
    await expect(
      client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'я'.repeat(4097), response_format: 'opus' }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
