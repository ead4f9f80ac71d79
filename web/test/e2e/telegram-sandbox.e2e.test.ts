import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { signUp, type TestStack } from '@gpt/deploy/testing';
import type { Browser } from 'playwright-core';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { brokenModelNames, launchChromium, screenshot } from '../support/browser';
import { storeSession } from '../support/payers';
import { newSandboxChat } from '../support/sandbox';
import { startSelfAddressedStack } from '../support/site';
import { Tab } from '../support/tab';

/** The embedded default: no bot token and no model API, so the bot lives in the site's sandbox page. */
let stack: TestStack;
let browser: Browser;
const tab = new Tab(
  () => browser,
  () => stack.url,
);

beforeAll(async () => {
  stack = await startSelfAddressedStack({
    ...MANY_USERS_ENV,
    BOT_STREAM_EDIT_INTERVAL_MS: '150',
    // One browser plays a new sandbox user in nearly every test, quicker than a person would.
    TELEGRAM_SANDBOX_NEW_USERS_PER_MINUTE: '100',
    TELEGRAM_SANDBOX_ACTIONS_PER_MINUTE: '300',
  });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

test.each([
  ['desktop', 1280, 900],
  ['phone', 390, 844],
])(
  '%s: «Открыть бота» leads to the sandbox; /start and a question are answered, the answer streamed in',
  async (name, width, height) => {
    const page = await tab.open({ width, height });
    await page.goto(`${stack.url}/telegram-sandbox`);
    await page.getByText('Это локальная тестовая песочница, а не Telegram.').waitFor();

    await page.getByRole('button', { name: 'Начать', exact: true }).click();
    const bot = page.locator('[data-from="bot"]');
    await bot.filter({ hasText: 'Здравствуйте, Гость' }).waitFor();
    await expect(page.getByRole('button', { name: /Баланс/ }).isVisible()).resolves.toBe(true);
    // Telegram's formatting is drawn, not shown as tags.
    await expect(bot.first().locator('strong').count()).resolves.toBeGreaterThan(0);
    await expect(bot.first().textContent()).resolves.not.toContain('<b>');

    const input = page.getByLabel('Сообщение боту');
    await input.fill('Сколько будет два плюс два?');
    await input.press('Enter');
    await expect(input.inputValue()).resolves.toBe('');
    await page.locator('[data-from="user"]').filter({ hasText: 'Сколько будет два плюс два?' }).waitFor();
    // The answer is seen while it is still being written (the cursor), then whole.
    await bot.filter({ hasText: '▍' }).first().waitFor({ timeout: 15_000 });
    const answer = bot.filter({ hasText: 'LLM_API_KEY.' }).filter({ hasNotText: '▍' });
    await answer.waitFor({ timeout: 20_000 });
    await expect(answer.textContent()).resolves.toContain('Вы написали: «Сколько будет два плюс два?»');
    await screenshot(page, `telegram-sandbox-${name}`);

    // The user is the server's, behind an HttpOnly cookie the page's scripts cannot read.
    const [cookie] = (await page.context().cookies()).filter((entry) => entry.name === 'tg_sandbox');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/telegram/sandbox' });
    await expect(page.evaluate(() => document.cookie)).resolves.not.toContain('tg_sandbox');
    // After a reload the same chat is there; «Новый пользователь» starts an empty one.
    await page.reload();
    await page.locator('[data-from="user"]').filter({ hasText: 'Сколько будет два плюс два?' }).waitFor();
    await page.getByRole('button', { name: 'Новый пользователь' }).click();
    await page.getByRole('button', { name: 'Начать', exact: true }).waitFor();
    await expect(page.locator('[data-from="user"]').count()).resolves.toBe(0);
  },
  60_000,
);

test('the home page’s «Открыть бота» points at the sandbox page', async () => {
  const page = await tab.open({ width: 1280, height: 900 });
  await page.goto(`${stack.url}/`);
  const link = page.locator('a', { hasText: 'Открыть бота' }).first();
  await expect(link.getAttribute('href')).resolves.toBe(`${stack.url}/telegram-sandbox`);
});

test('the account’s «Ссылка на бота» carries the referral code to the sandbox page, whose «Начать» sends it with /start', async () => {
  const inviter = await signUp(stack.url);
  const summary = await callApi<{ referral_code: string }>(stack.url, 'GET', '/api/billing/referrals', {
    token: inviter.token,
  });
  const page = await tab.open({ width: 1280, height: 900 });
  await storeSession(page, stack.url, inviter);
  await page.goto(`${stack.url}/dashboard`);
  const link = `${stack.url}/telegram-sandbox?start=ref_${summary.body.referral_code}`;
  await expect(page.getByRole('textbox', { name: 'Ссылка на бота' }).inputValue()).resolves.toBe(link);

  await page.goto(link);
  await page.getByRole('button', { name: 'Начать', exact: true }).click();
  await page
    .locator('[data-from="user"]')
    .filter({ hasText: `/start ref_${summary.body.referral_code}` })
    .waitFor();
});

test('/buy in the sandbox: a Stars invoice is paid in the chat and the credits arrive', async () => {
  const page = await tab.open({ width: 1280, height: 900 });
  const { bot, input } = await newSandboxChat(page, stack.url);
  await input.fill('/buy');
  await input.press('Enter');
  await bot.filter({ hasText: 'Пополнение и тарифы' }).waitFor();
  await page.getByRole('button', { name: '+300,00 ₽', exact: true }).click();
  await bot.filter({ hasText: 'Как оплатить?' }).waitFor();
  await page.getByRole('button', { name: '⭐ Оплатить звёздами' }).click();

  const invoice = page.getByTestId('tg-invoice');
  await invoice.filter({ hasText: 'Пополнение на 30 000 кредитов' }).waitFor();
  await expect(invoice.textContent()).resolves.toContain('⭐ 200');
  await page.getByRole('button', { name: 'Оплатить ⭐ 200' }).click();
  await page.locator('[data-from="user"]').filter({ hasText: 'Вы оплатили ⭐ 200' }).waitFor();
  await bot.filter({ hasText: 'Оплата получена: +30 000 кредитов' }).waitFor();
  await screenshot(page, 'telegram-sandbox-stars');
}, 60_000);

test.each([
  [1280, 1000],
  [1280, 720],
  [390, 844],
])(
  'at %i×%i the chat fits the window: the composer is in view, the messages scroll inside and have half the screen',
  async (width, height) => {
    const page = await tab.open({ width, height });
    await page.goto(`${stack.url}/telegram-sandbox`);
    await page.getByRole('button', { name: 'Начать', exact: true }).click();
    const bot = page.locator('[data-from="bot"]');
    await bot.filter({ hasText: 'Здравствуйте, Гость' }).waitFor();
    const input = page.getByLabel('Сообщение боту');
    // Typed one after another without waiting, as in Telegram: each is sent, and answered in order.
    const questions = [1, 2, 3, 4, 5].map((n) => `Вопрос номер ${n}`);
    for (const question of questions) {
      await input.fill(question);
      await input.press('Enter');
    }
    await bot
      .filter({ hasText: `Вы написали: «${questions.at(-1)}»` })
      .filter({ hasNotText: '▍' })
      .waitFor();
    const sent = await page.locator('[data-from="user"]').allTextContents();
    expect(questions.map((question) => sent.findIndex((text) => text.includes(question)))).toEqual([1, 2, 3, 4, 5]);
    const answered = await bot.allTextContents();
    expect(questions.map((question) => answered.findIndex((text) => text.includes(`«${question}»`)))).toEqual([
      1, 2, 3, 4, 5,
    ]);
    const composer = (await page.getByRole('button', { name: 'Отправить', exact: true }).boundingBox())!;
    const chat = (await page.getByRole('region', { name: 'Чат с ботом' }).boundingBox())!;
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(composer.y + composer.height).toBeLessThanOrEqual(height);
    expect(chat.y + chat.height).toBeLessThanOrEqual(height);
    const scrolls = await page
      .locator('.tg-messages')
      .evaluate((element) => element.scrollHeight > element.clientHeight && element.scrollTop > 0);
    expect(scrolls).toBe(true);
    // The conversation, not the notes around it, has the screen: at least half of it, a phone's too.
    const messages = (await page.locator('.tg-messages').boundingBox())!;
    expect(messages.height).toBeGreaterThanOrEqual(height / 2);
    await screenshot(page, `telegram-sandbox-fits-${width}x${height}`);
  },
  90_000,
);

test('at 390 px a model’s name in the chat (/model) is never broken at its hyphens', async () => {
  const page = await tab.open({ width: 390, height: 844 });
  await page.goto(`${stack.url}/telegram-sandbox`);
  await page.getByRole('button', { name: 'Начать', exact: true }).click();
  const bot = page.locator('[data-from="bot"]');
  await bot.filter({ hasText: 'Здравствуйте, Гость' }).waitFor();
  const input = page.getByLabel('Сообщение боту');
  await input.fill('/model');
  await input.press('Enter');
  // The greeting names the default model, the list names every model.
  await bot.filter({ hasText: 'кредитов за 1 000 токенов' }).waitFor();
  await screenshot(page, 'telegram-sandbox-models-390');
  // Every «gpt-…» name in the chat lies on one line.
  await expect(brokenModelNames(page, '.tg-messages')).resolves.toEqual([]);
}, 60_000);

/** One second of silence as a WAV file: what a person might upload as a voice message. */
function silentWav(seconds: number): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * 2 * seconds);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

test('a voice message (an uploaded audio file) is heard and answered, and spoken answers arrive as voice', async () => {
  const page = await tab.open({ width: 1280, height: 900 });
  await page.goto(`${stack.url}/telegram-sandbox`);
  await page.getByRole('button', { name: 'Начать', exact: true }).click();
  const bot = page.locator('[data-from="bot"]');
  await bot.filter({ hasText: 'Здравствуйте' }).waitFor();
  await page.getByRole('button', { name: 'Отвечать голосом: выкл' }).click();
  await bot.filter({ hasText: 'Теперь я отвечаю и голосом' }).waitFor();

  await page.getByTestId('attach-voice').setInputFiles({
    name: 'вопрос.wav',
    mimeType: 'audio/wav',
    buffer: silentWav(2),
  });
  await page.locator('[data-from="user"] audio').waitFor();
  await expect(page.locator('[data-from="user"]').last().textContent()).resolves.toContain('2 с');
  await bot.filter({ hasText: '🎙 🧪 Тестовое распознавание' }).waitFor({ timeout: 20_000 });
  await bot.filter({ hasText: 'LLM_API_KEY.' }).filter({ hasNotText: '▍' }).waitFor({ timeout: 20_000 });
  const voice = page.locator('[data-from="bot"] audio');
  await voice.waitFor({ timeout: 20_000 });
  // The spoken answer is a real Ogg/Opus file the browser can play.
  const seconds = await voice.evaluate(
    (audio: HTMLAudioElement) =>
      new Promise<number>((resolve) => {
        if (audio.readyState >= 1) resolve(audio.duration);
        else audio.addEventListener('loadedmetadata', () => resolve(audio.duration), { once: true });
      }),
  );
  expect(seconds).toBeGreaterThan(0);
  await screenshot(page, 'telegram-sandbox-voice');
}, 90_000);
