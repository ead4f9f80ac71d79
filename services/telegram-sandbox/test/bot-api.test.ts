import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, GrammyError, InlineKeyboard, InputFile, webhookCallback } from 'grammy';
import { startFakeTelegram, type FakeTelegram, type FakeUser } from '../src/testing';

const alice: FakeUser = { id: 5_000_001, first_name: 'Алиса', username: 'alice', language_code: 'ru' };
/** Bytes to send as a photo and as a voice message: the sandbox keeps them as they are. */
const PHOTO = Buffer.from('\x89PNG\r\n\x1a\nphoto', 'latin1');
const VOICE = Buffer.from('OggS voice message');

/** The sandbox is checked with grammY, the client library the bot uses, so it is known to speak what grammY expects. */
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
      await ctx.replyWithPhoto(new InputFile(PHOTO, 'echo.png'), { caption: `Прочитано: ${bytes}` });
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
    expect(telegram.chatLog(alice.id).at(-1)?.message.photo?.[0]?.file_size).toBe(PHOTO.length);
  });

  test('a voice message is downloaded and a voice is sent back; a reply carries the replied message', async () => {
    telegram.sendVoice(alice, VOICE, { duration: 2 });
    const voice = await telegram.waitFor('sendVoice');
    expect(voice.params.caption).toBe(`Голос 2 с, ${VOICE.length} байт`);
    const sent = telegram.chatLog(alice.id).at(-1)!;
    expect(sent.message.voice).toMatchObject({ duration: 2, mime_type: 'audio/ogg', file_size: VOICE.length });
    expect(telegram.file(sent.message.voice!.file_id)?.bytes).toEqual(VOICE);

    telegram.sendText(alice, 'А подробнее?', sent.message_id);
    await telegram.waitFor('sendMessage', (call) =>
      String(call.params.text).includes(`ответ на «Голос 2 с, ${VOICE.length} байт»`),
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
