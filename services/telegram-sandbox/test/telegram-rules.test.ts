import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test } from '@jest/globals';
import { Bot, GrammyError, InlineKeyboard, webhookCallback } from 'grammy';
import type { Update } from 'grammy/types';
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions, type FakeUser } from '../src/testing';

/**
 * The rules of the Bot API the sandbox keeps (docs/bot.md, «The sandbox keeps Telegram's rules»), each
 * checked through grammY as a bot sees them: Telegram's own error code and description.
 */
const alice: FakeUser = {
  id: 5_100_001,
  first_name: 'Алиса',
  username: 'alice',
  language_code: 'ru',
};
const boris: FakeUser = { id: 5_100_002, first_name: 'Борис' };

let telegram: FakeTelegram;
let bot: Bot;

async function start(options: FakeTelegramOptions = {}) {
  telegram = await startFakeTelegram(options);
  bot = new Bot(telegram.token, { client: { apiRoot: telegram.apiUrl } });
  await bot.init();
}
afterEach(async () => {
  await telegram.close();
});

/** The refusal of a call, as grammY reports it: `error_code description`, or `ok`. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => 'ok',
    (err: unknown) => (err instanceof GrammyError ? `${err.error_code} ${err.description}` : String(err)),
  );

const typesOf = (updates: Update[]) => updates.map((update) => Object.keys(update).find((key) => key !== 'update_id'));

/** Sends a message to the user's chat, so that the chat exists for the bot. */
async function chatWith(user: FakeUser) {
  telegram.sendText(user, 'привет');
  const updates = await bot.api.getUpdates({ timeout: 0 });
  await bot.api.getUpdates({
    offset: updates.at(-1)!.update_id + 1,
    timeout: 0,
  });
}

describe('allowed_updates', () => {
  test('getUpdates delivers only the types asked for; omitted keeps the last list; empty restores the default', async () => {
    await start();
    telegram.sendText(alice, 'до');
    const sent = await bot.api.sendMessage(alice.id, 'Кнопка', {
      reply_markup: new InlineKeyboard().text('Нажать', 'press'),
    });
    await bot.api.getUpdates({
      allowed_updates: ['message'],
      offset: -1,
      timeout: 0,
    });

    telegram.pressButton(alice, sent.message_id, 'press');
    telegram.sendText(alice, 'после');
    let updates = await bot.api.getUpdates({ timeout: 0 });
    expect(typesOf(updates).slice(-2)).toEqual(['message', 'message']);
    expect(updates.some((update) => update.callback_query)).toBe(false);

    telegram.pressButton(alice, sent.message_id, 'press');
    updates = await bot.api.getUpdates({
      offset: updates.at(-1)!.update_id + 1,
      timeout: 0,
    });
    expect(updates).toEqual([]);
    expect(telegram.allowedUpdates).toEqual(['message']);

    await bot.api.getUpdates({ allowed_updates: [], timeout: 0 });
    telegram.pressButton(alice, sent.message_id, 'press');
    updates = await bot.api.getUpdates({ timeout: 0 });
    expect(typesOf(updates)).toEqual(['callback_query']);
    expect(telegram.allowedUpdates).not.toContain('chat_member');
  });

  test('setWebhook takes the list too: a pre-checkout query the bot did not ask for never reaches it', async () => {
    await start({ timeouts: { preCheckoutMs: 500 } });
    const received: string[] = [];
    const hook = createServer(webhookCallback(bot, 'http'));
    bot.on(['message', 'pre_checkout_query'], (ctx) => {
      received.push(Object.keys(ctx.update).find((key) => key !== 'update_id')!);
      return ctx.update.pre_checkout_query ? ctx.answerPreCheckoutQuery(true) : undefined;
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`;
      await chatWith(alice);
      const invoice = await bot.api.sendInvoice(alice.id, 'Звёзды', 'Пакет', 'p1', 'XTR', [
        { label: 'Пакет', amount: 10 },
      ]);
      await bot.api.setWebhook(url, { allowed_updates: ['message'] });
      await expect(telegram.payInvoice(alice, invoice.message_id)).resolves.toMatchObject({ ok: false });
      expect(received).toEqual([]);

      await bot.api.setWebhook(url, {
        allowed_updates: ['message', 'pre_checkout_query'],
      });
      await expect(telegram.payInvoice(alice, invoice.message_id)).resolves.toMatchObject({ ok: true });
      await telegram.waitFor('answerPreCheckoutQuery');
      expect(received).toEqual(['pre_checkout_query']);
    } finally {
      await bot.api.deleteWebhook();
      hook.closeAllConnections();
      hook.close();
    }
  });
});

/** The 400s below come whatever the pace: these tests send quicker than the flood limits allow. */
const unlimited = { floodLimits: false } as const;

describe('payments', () => {
  test('a pre-checkout query left unanswered fails the payment, and no successful_payment follows', async () => {
    await start({ timeouts: { preCheckoutMs: 300 } });
    await chatWith(alice);
    const invoice = await bot.api.sendInvoice(alice.id, 'Звёзды', 'Пакет', 'p1', 'XTR', [
      { label: 'Пакет', amount: 10 },
    ]);
    const paying = telegram.payInvoice(alice, invoice.message_id);
    const [query] = await bot.api.getUpdates({ timeout: 0 });
    expect(query?.pre_checkout_query?.invoice_payload).toBe('p1');
    await expect(paying).resolves.toMatchObject({ ok: false });

    expect(await refusal(bot.api.answerPreCheckoutQuery(query!.pre_checkout_query!.id, true))).toBe(
      '400 Bad Request: query is too old and response timeout expired or query ID is invalid',
    );
    expect(telegram.chatLog(alice.id).some((entry) => entry.message.successful_payment)).toBe(false);
    expect(telegram.charges.size).toBe(0);
  });

  test('a Stars invoice has currency XTR, an empty provider token and exactly one price', async () => {
    await start(unlimited);
    await chatWith(alice);
    const price = [{ label: 'Пакет', amount: 10 }];
    expect(await refusal(bot.api.sendInvoice(alice.id, 'Звёзды', 'Пакет', 'p', 'XTR', price))).toBe('ok');
    expect(
      await refusal(
        bot.api.sendInvoice(alice.id, 'Звёзды', 'Пакет', 'p', 'XTR', price, {
          provider_token: 'tok',
        }),
      ),
    ).toBe('400 Bad Request: STARS_INVOICE_INVALID');
    expect(await refusal(bot.api.sendInvoice(alice.id, 'Звёзды', 'Пакет', 'p', 'XTR', [...price, ...price]))).toBe(
      '400 Bad Request: STARS_INVOICE_INVALID',
    );
    expect(await refusal(bot.api.sendInvoice(alice.id, 'Рубли', 'Пакет', 'p', 'RUB', price))).toBe(
      '400 Bad Request: PAYMENT_PROVIDER_INVALID',
    );
  });

  test('a subscription link is in XTR, for exactly 2592000 seconds, at most 10 000 stars', async () => {
    await start(unlimited);
    const link = (amount: number, period: number, currency = 'XTR') =>
      refusal(
        bot.api.createInvoiceLink('Premium', 'Месяц', 'sub', '', currency, [{ label: 'Месяц', amount }], {
          subscription_period: period,
        }),
      );
    expect(await link(234, 2_592_000)).toBe('ok');
    expect(await link(10_000, 2_592_000)).toBe('ok');
    expect(await link(234, 604_800)).toBe('400 Bad Request: SUBSCRIPTION_PERIOD_INVALID');
    expect(await link(10_001, 2_592_000)).toBe('400 Bad Request: SUBSCRIPTION_AMOUNT_INVALID');
    expect(await link(234, 2_592_000, 'RUB')).toBe('400 Bad Request: PAYMENT_PROVIDER_INVALID');
  });

  test('a subscription: the first payment and each renewal are recurring successful_payments until the bot cancels it; only the bot’s own cancellation can be undone', async () => {
    await start({ ...unlimited, timeouts: { preCheckoutMs: 2000 } });
    await chatWith(alice);
    const link = await bot.api.createInvoiceLink(
      'Premium',
      'Месяц',
      'sub-1',
      '',
      'XTR',
      [{ label: 'Месяц', amount: 234 }],
      {
        subscription_period: 2_592_000,
      },
    );
    const paying = telegram.paySubscriptionLink(alice, link);
    const [query] = await bot.api.getUpdates({ timeout: 0 });
    await bot.api.answerPreCheckoutQuery(query!.pre_checkout_query!.id, true);
    const first = await paying;
    if (!first.ok) throw new Error('not paid');
    const now = Math.floor(Date.now() / 1000);
    expect(first.payment).toMatchObject({ is_recurring: true, is_first_recurring: true, invoice_payload: 'sub-1' });
    expect(first.payment.subscription_expiration_date).toBeGreaterThanOrEqual(now + 2_592_000 - 5);
    const chargeId = first.payment.telegram_payment_charge_id;

    const renewed = telegram.renewSubscription(chargeId);
    if (!renewed?.ok) throw new Error('not renewed');
    expect(renewed.payment).toMatchObject({ is_recurring: true, invoice_payload: 'sub-1' });
    expect(renewed.payment.is_first_recurring).toBeUndefined();
    expect(renewed.payment.telegram_payment_charge_id).not.toBe(chargeId);
    expect(renewed.payment.subscription_expiration_date).toBe(first.payment.subscription_expiration_date! + 2_592_000);

    expect(await refusal(bot.api.editUserStarSubscription(boris.id, chargeId, true))).toBe(
      '400 Bad Request: CHARGE_NOT_FOUND',
    );
    expect(await refusal(bot.api.editUserStarSubscription(alice.id, chargeId, true))).toBe('ok');
    expect(telegram.renewSubscription(chargeId)).toBeNull();
    expect(await refusal(bot.api.editUserStarSubscription(alice.id, chargeId, false))).toBe('ok');
    expect(telegram.renewSubscription(chargeId)?.ok).toBe(true);
  });
});

describe('messages', () => {
  test('text is at most 4 096 characters after entity parsing, a caption at most 1 024', async () => {
    await start(unlimited);
    await chatWith(alice);
    expect(await refusal(bot.api.sendMessage(alice.id, 'я'.repeat(4096)))).toBe('ok');
    expect(
      await refusal(
        bot.api.sendMessage(alice.id, `<b>${'я'.repeat(4096)}</b>`, {
          parse_mode: 'HTML',
        }),
      ),
    ).toBe('ok');
    expect(await refusal(bot.api.sendMessage(alice.id, 'я'.repeat(4097)))).toBe('400 Bad Request: message is too long');
    const photo = telegram.addFile(Buffer.from('png'), {
      mime: 'image/png',
    }).file_id;
    expect(await refusal(bot.api.sendPhoto(alice.id, photo, { caption: 'я'.repeat(1024) }))).toBe('ok');
    expect(await refusal(bot.api.sendPhoto(alice.id, photo, { caption: 'я'.repeat(1025) }))).toBe(
      '400 Bad Request: message caption is too long',
    );
    const sent = await bot.api.sendMessage(alice.id, 'коротко');
    expect(await refusal(bot.api.editMessageText(alice.id, sent.message_id, 'я'.repeat(4097)))).toBe(
      '400 Bad Request: message is too long',
    );
  });

  test('callback data is 1 to 64 bytes', async () => {
    await start(unlimited);
    await chatWith(alice);
    const withData = (data: string) =>
      refusal(
        bot.api.sendMessage(alice.id, 'Кнопки', {
          reply_markup: new InlineKeyboard().text('Да', data),
        }),
      );
    expect(await withData('я'.repeat(32))).toBe('ok');
    expect(await withData('я'.repeat(33))).toBe('400 Bad Request: BUTTON_DATA_INVALID');
    expect(await withData('x'.repeat(65))).toBe('400 Bad Request: BUTTON_DATA_INVALID');
    expect(await withData('')).toBe('400 Bad Request: BUTTON_DATA_INVALID');
  });

  test('a URL button opens http(s) and tg links only; a photo caption is 1024 characters at most', async () => {
    await start(unlimited);
    await chatWith(alice);
    const withUrl = (url: string) =>
      refusal(bot.api.sendMessage(alice.id, 'Кнопки', { reply_markup: new InlineKeyboard().url('Сайт', url) }));
    expect(await withUrl('https://example.com/promo')).toBe('ok');
    expect(await withUrl('tg://resolve?domain=telegram')).toBe('ok');
    expect(await withUrl('ftp://example.com/file')).toBe(
      "400 Bad Request: inline keyboard button URL 'ftp://example.com/file' is invalid: Unsupported URL protocol",
    );
    expect(await withUrl('javascript:alert(1)')).toBe(
      "400 Bad Request: inline keyboard button URL 'javascript:alert(1)' is invalid: Unsupported URL protocol",
    );
    const photo = (caption: string) => refusal(bot.api.sendPhoto(alice.id, 'https://example.com/a.jpg', { caption }));
    expect(await photo('я'.repeat(1024))).toBe('ok');
    expect(await photo('я'.repeat(1025))).toBe('400 Bad Request: message caption is too long');
  });

  test('HTML with an unclosed or unknown tag cannot be parsed', async () => {
    await start(unlimited);
    await chatWith(alice);
    expect(await refusal(bot.api.sendMessage(alice.id, '<b>жирный', { parse_mode: 'HTML' }))).toMatch(
      /^400 Bad Request: can't parse entities: /,
    );
    expect(
      await refusal(
        bot.api.sendMessage(alice.id, '<blink>да</blink>', {
          parse_mode: 'HTML',
        }),
      ),
    ).toMatch(/^400 Bad Request: can't parse entities: Unsupported start tag "blink"/);
  });

  test('an edit to the same text and markup is refused as not modified; another markup is an edit', async () => {
    await start(unlimited);
    await chatWith(alice);
    const sent = await bot.api.sendMessage(alice.id, 'текст');
    expect(await refusal(bot.api.editMessageText(alice.id, sent.message_id, 'текст'))).toMatch(
      /^400 Bad Request: message is not modified/,
    );
    const buttons = { reply_markup: new InlineKeyboard().text('Ещё', 'more') };
    expect(await refusal(bot.api.editMessageText(alice.id, sent.message_id, 'текст', buttons))).toBe('ok');
  });
});

describe('a user who blocked the bot', () => {
  test('every call to the chat is 403 until the user writes again; the bot hears of both when it asked', async () => {
    await start();
    await chatWith(alice);
    await bot.api.getUpdates({
      allowed_updates: ['message', 'my_chat_member'],
      timeout: 0,
    });
    const sent = await bot.api.sendMessage(alice.id, 'до');
    telegram.blockBot(alice.id);

    const blocked = '403 Forbidden: bot was blocked by the user';
    expect(await refusal(bot.api.sendMessage(alice.id, 'ещё'))).toBe(blocked);
    expect(await refusal(bot.api.editMessageText(alice.id, sent.message_id, 'правка'))).toBe(blocked);
    expect(await refusal(bot.api.sendChatAction(alice.id, 'typing'))).toBe(blocked);
    const [kicked] = await bot.api.getUpdates({ timeout: 0 });
    expect(kicked?.my_chat_member?.new_chat_member.status).toBe('kicked');

    telegram.sendText(alice, '/start');
    const updates = await bot.api.getUpdates({
      offset: kicked!.update_id + 1,
      timeout: 0,
    });
    expect(typesOf(updates)).toEqual(['my_chat_member', 'message']);
    expect(await refusal(bot.api.sendMessage(alice.id, 'снова'))).toBe('ok');
  });
});

describe('flood limits', () => {
  test('past a short burst one chat gets about a message a second; then 429 with retry_after', async () => {
    await start();
    await chatWith(alice);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await refusal(bot.api.sendMessage(alice.id, `№${i}`)));
    expect(results).toEqual(['ok', 'ok', 'ok', '429 Too Many Requests: retry after 1']);
    const refused = await bot.api.sendMessage(alice.id, 'ещё').catch((err: GrammyError) => err);
    expect((refused as GrammyError).parameters.retry_after).toBe(1);
    await sleep(1000);
    expect(await refusal(bot.api.sendMessage(alice.id, 'через секунду'))).toBe('ok');
  });

  test('about 30 messages a second in all: past a burst of 30, the rest of a crowd is refused', async () => {
    await start();
    const users = Array.from({ length: 100 }, (_, i) => ({ id: 5_200_000 + i, first_name: `№${i}` }));
    for (const user of users) telegram.sendText(user, 'привет');
    const started = Date.now();
    const results = await Promise.all(users.map((user) => refusal(bot.api.sendMessage(user.id, 'рассылка'))));
    // The bucket refills at 30 a second while the crowd is sent: that many more may pass.
    const refilled = Math.ceil(((Date.now() - started) / 1000) * 30);
    const sent = results.filter((result) => result === 'ok').length;
    expect(sent).toBeGreaterThanOrEqual(30);
    expect(sent).toBeLessThanOrEqual(30 + refilled);
    expect(results.filter((result) => /^429 Too Many Requests: retry after \d+$/.test(result))).toHaveLength(
      100 - sent,
    );
  });

  test('a 429 asked for by the test holds as a flood wait: every message to any chat is refused until retry_after has passed', async () => {
    await start({ floodLimits: false });
    await chatWith(alice);
    await chatWith(boris);
    telegram.failNext('sendMessage', { error_code: 429, retry_after: 3 });
    expect(await refusal(bot.api.sendMessage(alice.id, 'первое'))).toBe('429 Too Many Requests: retry after 3');
    expect(await refusal(bot.api.sendMessage(boris.id, 'другому'))).toMatch(
      /^429 Too Many Requests: retry after [23]$/,
    );
    expect(await refusal(bot.api.editMessageText(alice.id, 1, 'правка'))).toMatch(/^429 /);
    expect(await refusal(bot.api.sendChatAction(boris.id, 'typing'))).toBe('ok');
    expect(await refusal(bot.api.getMe())).toBe('ok');
    await sleep(1000);
    expect(await refusal(bot.api.sendMessage(alice.id, 'через секунду'))).toMatch(
      /^429 Too Many Requests: retry after [12]$/,
    );
    await sleep(2000);
    expect(await refusal(bot.api.sendMessage(alice.id, 'через три'))).toBe('ok');
  });

  test('off for a person in the browser sandbox: nothing is refused', async () => {
    await start({ floodLimits: false });
    await chatWith(boris);
    const results = await Promise.all(Array.from({ length: 10 }, () => refusal(bot.api.sendMessage(boris.id, 'да'))));
    expect(new Set(results)).toEqual(new Set(['ok']));
  });
});

describe('callback queries', () => {
  test('a query answered after it expired, or twice, is too old', async () => {
    await start({ timeouts: { callbackQueryMs: 200 } });
    await chatWith(alice);
    const sent = await bot.api.sendMessage(alice.id, 'Кнопка', {
      reply_markup: new InlineKeyboard().text('Нажать', 'press'),
    });
    const tooOld = '400 Bad Request: query is too old and response timeout expired or query ID is invalid';

    telegram.pressButton(alice, sent.message_id, 'press');
    let [update] = await bot.api.getUpdates({ offset: -1, timeout: 0 });
    expect(await refusal(bot.api.answerCallbackQuery(update!.callback_query!.id))).toBe('ok');
    expect(await refusal(bot.api.answerCallbackQuery(update!.callback_query!.id))).toBe(tooOld);

    telegram.pressButton(alice, sent.message_id, 'press');
    [update] = await bot.api.getUpdates({ offset: -1, timeout: 0 });
    await sleep(300);
    expect(await refusal(bot.api.answerCallbackQuery(update!.callback_query!.id))).toBe(tooOld);
  });
});

describe('profile photos', () => {
  test('getUserProfilePhotos answers a known user’s photos newest first, offset and limit clamped to 1–100; getFile and the download serve each', async () => {
    await start();
    await chatWith(alice);
    await chatWith(boris);
    expect(await bot.api.getUserProfilePhotos(boris.id)).toEqual({ total_count: 0, photos: [] });
    telegram.setProfilePhoto(alice.id, Buffer.from('first photo'));
    telegram.setProfilePhoto(alice.id, Buffer.from('newest photo'), 320);

    const all = await bot.api.getUserProfilePhotos(alice.id);
    expect(all.total_count).toBe(2);
    expect(all.photos.map((sizes) => sizes.map(({ width, height }) => [width, height]))).toEqual([
      [[320, 320]],
      [[160, 160]],
    ]);
    const clamped = await bot.api.getUserProfilePhotos(alice.id, { offset: 1, limit: 500 });
    expect(clamped).toMatchObject({ total_count: 2, photos: [[{ width: 160 }]] });
    expect((await bot.api.getUserProfilePhotos(alice.id, { limit: 0 })).photos).toHaveLength(1);

    const file = await bot.api.getFile(all.photos[0]![0]!.file_id);
    const download = await fetch(`${telegram.apiUrl}/file/bot${telegram.token}/${file.file_path}`);
    expect(Buffer.from(await download.arrayBuffer()).toString()).toBe('newest photo');

    expect(await refusal(bot.api.getUserProfilePhotos(9_999_999))).toBe('400 Bad Request: user not found');
    expect(await refusal(bot.api.getUserProfilePhotos(0))).toBe('400 Bad Request: invalid user_id specified');
    expect(await refusal(bot.api.getFile('no-such-file'))).toBe('400 Bad Request: invalid file_id');
  });
});
