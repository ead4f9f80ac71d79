import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { callApi, MANY_USERS_ENV, type TestStack } from '@gpt/deploy/testing';
import type { Browser, Page } from 'playwright-core';
import { startFakeOpenAI, type FakeOpenAI } from '../../../services/bot/test/support/fake-openai';
import { launchChromium, screenshot, seriousAxeViolations } from '../support/browser';
import { registeredPayer, storeSession } from '../support/payers';
import { newSandboxChat } from '../support/sandbox';
import { startSelfAddressedStack } from '../support/site';

/**
 * The web chat (/chat) on the whole product, with the model a fake on localhost streaming word by word, as
 * slowly as a test asks, and the bot in the site's own Telegram sandbox: ask on the web and see the answer
 * come, reload or stop it halfway, search and export, and read on the web what was asked in Telegram.
 */
let stack: TestStack;
let browser: Browser;
let openai: FakeOpenAI;
let adminToken: string;

beforeAll(async () => {
  openai = await startFakeOpenAI();
  stack = await startSelfAddressedStack({
    ...MANY_USERS_ENV,
    LLM_API_URL: openai.baseURL,
    LLM_API_KEY: 'sk-test',
    LLM_RETRY_BASE_MS: '10',
    BOT_CATALOG_TTL_MS: '0',
    BOT_STREAM_EDIT_INTERVAL_MS: '150',
    // The text so far is stored often, so a reload finds some of it stored and the rest comes by the stream.
    BOT_ANSWER_SAVE_INTERVAL_MS: '200',
  });
  browser = await launchChromium();
  const login = await callApi<{ token: string }>(stack.url, 'POST', '/api/auth/login', {
    body: { email: stack.admin.email, password: stack.admin.password },
  });
  adminToken = login.body.token;
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await openai?.close();
});

/** The model's next answers: this text, word by word, `msPerWord` apart. */
function modelAnswers(text: string, msPerWord = 0) {
  openai.slow(msPerWord);
  openai.reply(text);
}

/** A site account with credits to spend, signed in on /chat in a new page of the given width. */
async function chatPage(width: number, height: number, credits = 100_000): Promise<Page> {
  const person = await registeredPayer(stack);
  if (credits > 0) {
    const res = await callApi(stack.url, 'PUT', `/api/admin/users/${person.id}`, {
      token: adminToken,
      body: { depositAmount: credits },
    });
    expect(res.status).toBe(200);
  }
  const context = await browser.newContext({ viewport: { width, height } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
  const page = await context.newPage();
  await storeSession(page, stack.url, person);
  await page.goto(`${stack.url}/chat`);
  return page;
}

const closePage = (page: Page) => page.context().close();

/** An answer of `count` numbered words: any word shown twice or missing is seen. */
const numberedWords = (count: number) => Array.from({ length: count }, (_, i) => `слово${i + 1}`).join(' ');

async function ask(page: Page, text: string) {
  const input = page.getByLabel('Сообщение', { exact: true });
  await input.fill(text);
  await input.press('Enter');
  await page.locator('[data-role="user"]').filter({ hasText: text }).waitFor();
}

const lastAnswer = (page: Page) => page.locator('[data-role="assistant"]').last();
/** The last answer while it is being written, or once it is whole. */
const answerWhile = (page: Page, status: 'streaming' | 'done') =>
  lastAnswer(page).and(page.locator(`[data-status="${status}"]`));

const MARKDOWN_ANSWER = [
  'Вот **пример** на TypeScript:',
  '',
  '```ts',
  'const answer = 42;',
  '```',
  '',
  '- первый пункт',
  '- второй пункт',
  '',
  '<script>alert(1)</script> и [ссылка](javascript:alert(1))',
].join('\n');

test.each([
  ['desktop', 1280, 900],
  ['phone', 390, 844],
])(
  '%s: a question asked on /chat is answered as it is written, in Markdown, with a code block to copy',
  async (name, width, height) => {
    modelAnswers(MARKDOWN_ANSWER, 60);
    // Held after «Вот **пример** на» until the page has been seen mid-answer.
    const goOn = openai.holdAfterWords(3);
    const page = await chatPage(width, height);
    try {
      await page.goto(`${stack.url}/`);
      // «Чат» in the header for a signed-in user (in the burger menu on a phone).
      if (width < 992) await page.getByRole('button', { name: 'Меню' }).click();
      await page.getByRole('link', { name: 'Чат', exact: true }).click();
      await page.waitForURL(`${stack.url}/chat`);
      await page.getByText('Задайте вопрос — ответ появится здесь.').waitFor();
      await expect(page.getByTestId('available-credits').textContent()).resolves.toMatch(/Доступно: 100\s000 кредитов/);

      // Shift+Enter breaks the line, Enter sends.
      const input = page.getByLabel('Сообщение', { exact: true });
      await input.fill('Покажи пример кода');
      await input.press('Shift+Enter');
      await input.pressSequentially('на TypeScript');
      await expect(input.inputValue()).resolves.toBe('Покажи пример кода\nна TypeScript');
      await input.press('Enter');
      await page.locator('[data-role="user"]').filter({ hasText: 'на TypeScript' }).waitFor();
      await expect(input.inputValue()).resolves.toBe('');

      // Text is on the page while the answer is still being written.
      const answer = lastAnswer(page);
      await answerWhile(page, 'streaming').filter({ hasText: 'пример' }).waitFor();
      await expect(page.getByRole('button', { name: 'Остановить' }).isVisible()).resolves.toBe(true);
      // Screen readers hear the answer once it is whole: a polite live region, busy while it is written.
      await expect(answer.locator('[aria-live="polite"][aria-busy="true"]').count()).resolves.toBe(1);
      goOn();
      await answerWhile(page, 'done').waitFor({ timeout: 20_000 });

      // Drawn as Markdown; raw HTML and a javascript: link stay inert text.
      await expect(answer.locator('strong').first().textContent()).resolves.toBe('пример');
      await expect(answer.locator('li').count()).resolves.toBe(2);
      await expect(answer.locator('script').count()).resolves.toBe(0);
      await expect(answer.locator('a[href^="javascript"]').count()).resolves.toBe(0);
      await expect(answer.textContent()).resolves.toContain('<script>alert(1)</script>');
      // Each message says which door it came through and, for an answer, the model.
      await expect(page.locator('[data-role="user"]').last().textContent()).resolves.toContain('сайт');
      await expect(answer.textContent()).resolves.toMatch(/gpt-/);

      await answer.getByRole('button', { name: 'Копировать' }).click();
      await answer.getByRole('button', { name: 'Скопировано' }).waitFor();
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe('const answer = 42;\n');

      // The conversation is in the list, titled from the first question; the credits it cost are off the balance.
      if (width < 992) await page.getByRole('button', { name: 'Чаты', exact: true }).click();
      await page.getByRole('navigation', { name: 'Список чатов' }).getByText('Покажи пример кода').first().waitFor();
      await expect(page.getByTestId('available-credits').textContent()).resolves.not.toMatch(/100\s000/);
      await screenshot(page, `chat-${name}${width < 992 ? '-drawer' : ''}`);
      await expect(seriousAxeViolations(page)).resolves.toEqual([]);
      if (width < 992) {
        await page.keyboard.press('Escape');
        await page.getByRole('navigation', { name: 'Список чатов' }).waitFor({ state: 'hidden' });
        await screenshot(page, `chat-${name}`);
      }
    } finally {
      goOn();
      await closePage(page);
    }
  },
  90_000,
);

test('a reload halfway through an answer shows the text so far at once and goes on, with no word twice', async () => {
  const words = numberedWords(40);
  modelAnswers(words, 20);
  // The model stops at the 15th and the 30th word until let go, so the page is seen mid-answer for certain.
  const goOnFrom15 = openai.holdAfterWords(15);
  const goOnFrom30 = openai.holdAfterWords(30);
  const page = await chatPage(1280, 900);
  try {
    await ask(page, 'Посчитай до сорока словами');
    await answerWhile(page, 'streaming').filter({ hasText: 'слово15' }).waitFor({ timeout: 20_000 });

    const reloadedAt = Date.now();
    await page.reload();
    await answerWhile(page, 'streaming').filter({ hasText: 'слово15' }).waitFor();
    expect(Date.now() - reloadedAt).toBeLessThan(2_000);
    // It goes on streaming after the reload, from where the page was: every word once, in order.
    goOnFrom15();
    const streaming = answerWhile(page, 'streaming').filter({ hasText: 'слово30' });
    await streaming.waitFor({ timeout: 20_000 });
    await expect(streaming.locator('.chat-markdown').innerText()).resolves.toBe(numberedWords(30));
    goOnFrom30();
    await answerWhile(page, 'done').waitFor({ timeout: 20_000 });
    await expect(lastAnswer(page).locator('.chat-markdown').innerText()).resolves.toBe(words);
  } finally {
    goOnFrom15();
    goOnFrom30();
    await closePage(page);
  }
}, 60_000);

test('«Остановить» ends the answer halfway: the text so far stays, marked as stopped', async () => {
  const words = numberedWords(60);
  modelAnswers(words, 150);
  const page = await chatPage(1280, 900);
  try {
    await ask(page, 'Считай до шестидесяти');
    await lastAnswer(page).filter({ hasText: 'слово3 ' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Остановить' }).click();
    await lastAnswer(page).filter({ hasText: 'Ответ остановлен' }).waitFor({ timeout: 20_000 });
    const kept = (await lastAnswer(page).locator('.chat-markdown').textContent()) ?? '';
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(words.length);
    expect(words.startsWith(kept.trim())).toBe(true);
    await page.getByRole('button', { name: 'Отправить' }).waitFor();
  } finally {
    await closePage(page);
  }
}, 60_000);

test('«Поиск по чатам» finds a word in another form and opens its conversation at the message; «Экспорт» downloads the Markdown', async () => {
  modelAnswers('Кошки спят до шестнадцати часов в сутки.');
  const page = await chatPage(1280, 900);
  try {
    await ask(page, 'Сколько спят кошки?');
    await answerWhile(page, 'done').waitFor();
    modelAnswers('Собаки — верные друзья.');
    await page.getByRole('button', { name: 'Новый чат' }).click();
    await page.getByText('Задайте вопрос — ответ появится здесь.').waitFor();
    await ask(page, 'Расскажи про собак');
    await answerWhile(page, 'done').waitFor();

    await page.getByRole('searchbox', { name: 'Поиск по чатам' }).fill('кошка');
    await page.getByRole('searchbox', { name: 'Поиск по чатам' }).press('Enter');
    const hit = page.locator('.chat-hit').filter({ hasText: 'Сколько спят кошки?' }).first();
    await hit.waitFor();
    // The words found are marked in the snippet.
    await expect(hit.locator('mark').first().textContent()).resolves.toMatch(/кошки/i);
    await screenshot(page, 'chat-search');
    await hit.click();
    await page.waitForURL(/\/chat\/[^/?]+\?message=/);
    const marked = page.locator('.chat-message-hit');
    await marked.waitFor();
    await expect(marked.textContent()).resolves.toMatch(/кошки/i);
    await expect(marked.evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Сколько спят кошки?');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Экспорт' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^chat-.+\.md$/);
    const markdown = await readFile((await download.path())!, 'utf8');
    expect(markdown).toContain('Сколько спят кошки?');
    expect(markdown).toContain('Кошки спят до шестнадцати часов в сутки.');
  } finally {
    await closePage(page);
  }
}, 60_000);

test('a second tab shows the same conversation: the question asked in the first, and its answer', async () => {
  modelAnswers(numberedWords(20), 40);
  const first = await chatPage(1280, 900);
  try {
    await ask(first, 'Вопрос из первой вкладки');
    await answerWhile(first, 'done').waitFor({ timeout: 20_000 });
    const second = await first.context().newPage();
    await second.goto(first.url());
    await second.locator('[data-role="user"]').filter({ hasText: 'Вопрос из первой вкладки' }).waitFor();

    modelAnswers(numberedWords(30), 150);
    await ask(first, 'Ещё вопрос');
    // The other tab finds the new question and follows its answer as it is written.
    await second.locator('[data-role="user"]').filter({ hasText: 'Ещё вопрос' }).waitFor({ timeout: 15_000 });
    await answerWhile(second, 'done').filter({ hasText: 'слово30' }).waitFor({
      timeout: 20_000,
    });
    await expect(lastAnswer(second).locator('.chat-markdown').innerText()).resolves.toBe(numberedWords(30));
  } finally {
    await closePage(first);
  }
}, 60_000);

test('a question sent while an answer runs in the conversation is refused with the server’s words (409)', async () => {
  modelAnswers('Первый ответ.');
  let goOn = () => {};
  const first = await chatPage(1280, 900);
  try {
    await ask(first, 'Начало разговора');
    await answerWhile(first, 'done').waitFor();
    // The second tab's clock stands still: it does not read the conversation again before it sends.
    const second = await first.context().newPage();
    await second.clock.install();
    await second.goto(first.url());
    await second.locator('[data-role="user"]').filter({ hasText: 'Начало разговора' }).waitFor();

    modelAnswers(numberedWords(40), 20);
    // The first answer stays unfinished until the second tab has been refused.
    goOn = openai.holdAfterWords(5);
    await ask(first, 'Длинный вопрос');
    await answerWhile(first, 'streaming').waitFor();
    const input = second.getByLabel('Сообщение', { exact: true });
    await input.fill('Вопрос из второй вкладки');
    await input.press('Enter');
    await second
      .getByRole('alert')
      .filter({ hasText: 'Дождитесь ответа на предыдущий вопрос или остановите его.' })
      .waitFor();
    await expect(input.inputValue()).resolves.toBe('Вопрос из второй вкладки');
  } finally {
    goOn();
    await closePage(first);
  }
}, 60_000);

test('keyboard only: the search, the list, the box and «Отправить» are reached by Tab and named; Escape closes the phone’s list', async () => {
  modelAnswers('Ответ с клавиатуры.');
  const page = await chatPage(390, 844);
  try {
    const input = page.getByLabel('Сообщение', { exact: true });
    await input.waitFor();
    await input.focus();
    await page.keyboard.type('Вопрос с клавиатуры');
    // From the box Tab goes to «Отправить», and Enter on it sends.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent?.trim())).resolves.toBe('Отправить');
    await page.keyboard.press('Enter');
    await answerWhile(page, 'done').waitFor();

    await page.getByRole('button', { name: 'Чаты', exact: true }).focus();
    await page.keyboard.press('Enter');
    const list = page.getByRole('navigation', { name: 'Список чатов' });
    await list.waitFor();
    // Focus moves into the drawer; Tab walks its close button, «Новый чат», the search, then each conversation.
    const names: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      await page.keyboard.press('Tab');
      names.push(
        await page.evaluate(() => {
          const element = document.activeElement as HTMLInputElement | null;
          const label = element?.labels?.[0]?.textContent ?? element?.getAttribute('aria-label');
          return (label ?? element?.textContent ?? '').trim();
        }),
      );
    }
    expect(names).toEqual([
      'Закрыть',
      'Новый чат',
      'Поиск по чатам',
      'Найти',
      // The conversation the bot continues says so.
      'Вопрос с клавиатурыСегодня · сайт · продолжится в боте',
      'Переименовать «Вопрос с клавиатуры»',
      'Удалить «Вопрос с клавиатуры»',
    ]);
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
  } finally {
    await closePage(page);
  }
}, 60_000);

test('the model, the mode and the personal instructions chosen on /chat are the bot’s own settings', async () => {
  const page = await chatPage(1280, 900);
  try {
    const model = page.getByRole('combobox', { name: 'Модель' });
    await model.waitFor();
    const models = await model
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    // Another model than the one in use.
    const inUse = await model.inputValue();
    const chosen = models.find((value) => value !== inUse)!;
    expect(chosen).toBeTruthy();
    await model.selectOption(chosen);
    const mode = page.getByRole('combobox', { name: 'Режим' });
    const modes = await mode
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value).filter(Boolean));
    expect(modes.length).toBeGreaterThan(0);
    await mode.selectOption(modes[0]!);

    await page.getByRole('button', { name: 'Инструкции' }).click();
    const dialog = page.getByRole('dialog', { name: 'Личные инструкции' });
    await dialog.getByRole('textbox').fill('Отвечай коротко.');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await dialog.waitFor({ state: 'detached' });

    // What the bot reads is what was chosen here.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const saved = await callApi<{ model: string; modeId: string | null; instructions: string }>(
      stack.url,
      'GET',
      '/api/chat/preferences',
      { token: token! },
    );
    expect(saved.body).toEqual(
      expect.objectContaining({ model: chosen, modeId: modes[0], instructions: 'Отвечай коротко.' }),
    );
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Модель' }).inputValue()).resolves.toBe(chosen);
  } finally {
    await closePage(page);
  }
}, 60_000);

test('a conversation is renamed and, once confirmed, deleted', async () => {
  modelAnswers('Готово.');
  const page = await chatPage(1280, 900);
  try {
    await ask(page, 'Первый вопрос');
    await answerWhile(page, 'done').waitFor();
    const list = page.getByRole('navigation', { name: 'Список чатов' });
    await list.getByText('Первый вопрос').waitFor();

    await page.getByRole('button', { name: 'Переименовать «Первый вопрос»' }).click();
    const dialog = page.getByRole('dialog', { name: 'Переименовать чат' });
    await dialog.getByLabel('Название').fill('Мой чат');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await list.getByText('Мой чат').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Мой чат' }).waitFor();

    await page.getByRole('button', { name: 'Удалить «Мой чат»' }).click();
    const confirm = page.getByRole('dialog', { name: 'Удаление чата' });
    await confirm.getByRole('button', { name: 'Отмена' }).click();
    await expect(list.getByText('Мой чат').count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Удалить «Мой чат»' }).click();
    await confirm.getByRole('button', { name: 'Удалить' }).click();
    await list.getByText('Мой чат').waitFor({ state: 'detached' });
  } finally {
    await closePage(page);
  }
}, 60_000);

test('with no credits the question is refused as in the bot, with «Пополнить» leading to the account', async () => {
  const page = await chatPage(1280, 900, 0);
  try {
    const input = page.getByLabel('Сообщение', { exact: true });
    await input.fill('Вопрос без кредитов');
    await input.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Недостаточно кредитов' }).waitFor();
    // The question stays in the box to be sent again.
    await expect(input.inputValue()).resolves.toBe('Вопрос без кредитов');
    await page.getByRole('link', { name: 'Пополнить' }).click();
    await page.waitForURL(`${stack.url}/dashboard`);
  } finally {
    await closePage(page);
  }
}, 60_000);

test('signed out, /chat asks for a sign-in and comes back to the chat after it', async () => {
  const person = await registeredPayer(stack);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(`${stack.url}/chat`);
    await page.waitForURL(`${stack.url}/login`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Пароль').fill(person.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.waitForURL(`${stack.url}/chat`);
    await page.getByLabel('Сообщение', { exact: true }).waitFor();
    // No real bot here: the Telegram Login Widget is not offered.
    await page.goto(`${stack.url}/login`);
    await page.getByText('Забыли пароль?').waitFor();
    await expect(page.getByTestId('telegram-login').count()).resolves.toBe(0);
  } finally {
    await context.close();
  }
}, 60_000);

test('a used or unknown sign-in link from the bot says so in Russian, with the advice to ask the bot again', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  try {
    await page.goto(`${stack.url}/telegram-sign-in/no-such-token`);
    await page.getByRole('alert').filter({ hasText: '/web' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Попросите новую в боте командой \/web/);
    await screenshot(page, 'telegram-sign-in-error-390');
  } finally {
    await page.close();
  }
}, 30_000);

test('asked in the Telegram sandbox, read on /chat after signing in from the bot’s link; the door is marked', async () => {
  modelAnswers('Ответ для Telegram.');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    const { bot, input } = await newSandboxChat(page, stack.url);
    await input.fill('Вопрос из Телеграма');
    await input.press('Enter');
    await bot.filter({ hasText: 'Ответ для Telegram.' }).filter({ hasNotText: '▍' }).waitFor({ timeout: 20_000 });

    await input.fill('/web');
    await input.press('Enter');
    const link = page.locator('a[href*="/telegram-sign-in/"]').last();
    const href = (await link.getAttribute('href'))!;
    await page.goto(href);
    await page.waitForURL(/\/chat(\/|$)/);
    const question = page.locator('[data-role="user"]').filter({ hasText: 'Вопрос из Телеграма' });
    await question.waitFor();
    await expect(question.textContent()).resolves.toContain('Telegram');
    await expect(lastAnswer(page).textContent()).resolves.toContain('Ответ для Telegram.');
    await screenshot(page, 'chat-from-telegram');

    // Continued on the site: the model gets the question asked in Telegram as the conversation so far.
    modelAnswers('Продолжение на сайте.');
    await ask(page, 'А теперь с сайта');
    await answerWhile(page, 'done').filter({ hasText: 'Продолжение на сайте.' }).waitFor();
    const sent = JSON.stringify(openai.requests.at(-1)!.messages);
    expect(sent).toContain('Вопрос из Телеграма');
    expect(sent).toContain('А теперь с сайта');

    // The link works once.
    await page.goto(href);
    await page.getByRole('alert').filter({ hasText: '/web' }).waitFor();
  } finally {
    await context.close();
  }
}, 90_000);
