import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { BotUser, HistoryMessage } from '@gpt/contracts';
import { busOf, startTestStack, type TestStack } from '@gpt/deploy/testing';
import { TEST_SECRETS, uniqueName } from '@gpt/kit/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium, screenshot } from '../support/browser';
import { png } from '../support/images';
import { storeSession } from '../support/payers';
import { Tab } from '../support/tab';

const BOT_KEY = TEST_SECRETS.BOT_API_KEY;

let stack: TestStack;
let browser: Browser;
let page: Page;
const tab = new Tab(
  () => browser,
  () => stack.url,
);
let adminSession: { token: string; user: unknown };

beforeAll(async () => {
  stack = await startTestStack({
    ARGON2_MEMORY_KIB: '8192',
    ARGON2_TIME_COST: '1',
    RATE_LIMIT_LOGIN_POINTS: '1000',
  });
  browser = await launchChromium();
  const login = await fetch(`${stack.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: stack.admin.email, password: stack.admin.password }),
  });
  adminSession = (await login.json()) as typeof adminSession;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

beforeEach(async () => {
  page = await tab.open({ width: 1400, height: 900 });
  await storeSession(page, stack.url, adminSession);
});

async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}
const admin = () => ({ Authorization: `Bearer ${adminSession.token}` });
const bot = { 'X-Bot-Key': BOT_KEY };

/** A Telegram user as the bot creates them; resolves once chat-history has them in its directory. */
async function telegramUser(username: string | null, firstName: string, lastName: string | null): Promise<BotUser> {
  const telegramId = 5_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
  const known = busOf(stack, 'chat-history').waitFor(
    'acked',
    (e) => e.type === 'user.registered' && (e.data as { telegram_id: number }).telegram_id === telegramId,
  );
  const res = await api<BotUser>(
    'POST',
    '/api/bot/users',
    { telegram_id: telegramId, username, first_name: firstName, last_name: lastName },
    bot,
  );
  expect(res.status).toBe(200);
  await known;
  return res.body;
}

async function record(
  user: BotUser,
  model: string,
  text: string,
  answer: string,
  image?: Buffer,
  door: 'telegram' | 'web' = 'telegram',
) {
  const form = new FormData();
  form.set('telegram_id', String(user.telegram_id));
  form.set('model', model);
  form.set('user_message', text);
  form.set('bot_response', answer);
  form.set('input_tokens', '1200');
  form.set('output_tokens', '450');
  form.set('door', door);
  if (image) form.set('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'photo.png');
  const res = await fetch(`${stack.url}/api/bot/messages`, { method: 'POST', headers: bot, body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as HistoryMessage;
}

const historyRows = () => page.locator('table[aria-label="История сообщений"] tbody tr');
/** Waits until the history table shows its answer with `count` rows. */
/**
 * «Сбросить», once the fields show it: the reset reaches them through the URL, and text typed before that
 * would be replaced by the reset's empty fields.
 */
async function resetFilters() {
  await page.getByRole('button', { name: 'Сбросить' }).click();
  await page.waitForFunction(() =>
    ['history-filter-user-id', 'history-filter-username', 'history-filter-message'].every(
      (id) => (document.getElementById(id) as HTMLInputElement | null)?.value === '',
    ),
  );
}
const waitForRows = (count: number) =>
  page.waitForFunction(
    (n) =>
      document.querySelector('.data-table-body')?.getAttribute('aria-busy') === 'false' &&
      document.querySelectorAll('table[aria-label="История сообщений"] tbody tr').length === n,
    count,
  );
/** The ID shown by the open detail dialog, once it shows `id`. */
const detailShows = (id: number) =>
  dialog('Сообщение')
    .locator('.info-item')
    .first()
    .locator('dd')
    .filter({ hasText: new RegExp(`^${id}$`) })
    .waitFor();
/** Waits until a prev / next button knows whether there is a neighbour. */
const settled = (button: Locator) => button.and(page.locator('[aria-busy="false"]')).waitFor();
const rowOf = (table: string, text: string) =>
  page.locator(`table[aria-label="${table}"] tbody tr`).filter({ hasText: text });
const dialog = (title: string) =>
  page.locator('.modal-dialog').filter({ has: page.getByRole('heading', { name: title }) });

describe('/admin/models', () => {
  test('add, edit and delete a model with the spec texts', async () => {
    const name = uniqueName('gpt-e2e');
    await page.goto(`${stack.url}/admin/models`);
    await page.getByRole('button', { name: 'Добавить модель' }).click();
    const form = dialog('Добавить модель');
    await form.getByRole('button', { name: 'Сохранить' }).click();
    // The contract's messages show under their fields, and nothing is saved.
    const nameField = form.getByLabel('Модель');
    await expect(form.locator('#model-name ~ .invalid-feedback').textContent()).resolves.toBe(
      'Укажите название модели',
    );
    await form.getByLabel('Цена ввода, $ за 1M токенов').fill('-1');
    await expect(form.locator('#model-input-price ~ .invalid-feedback').textContent()).resolves.toBe(
      'Цена должна быть числом не меньше 0',
    );
    await screenshot(page, 'admin-models-invalid');
    await expect(form.locator('.alert-danger').count()).resolves.toBe(0);
    await nameField.fill(name);
    await form.getByLabel('Описание').fill('Модель для проверки');
    await form.getByLabel('Цена ввода, $ за 1M токенов').fill('0.15');
    await form.getByLabel('Цена вывода, $ за 1M токенов').fill('0.6');
    await form.getByLabel('Цена за изображение, $').fill('0.04');
    await screenshot(page, 'admin-models-add');
    await form.getByRole('button', { name: 'Сохранить' }).click();
    const row = rowOf('Модели', name);
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/0,15\s\$.*0,60\s\$.*0,04\s\$.*Активна/);
    await screenshot(page, 'admin-models-list');

    await row.getByRole('button', { name: 'Редактировать' }).click();
    const edit = dialog('Редактировать модель');
    await expect(edit.getByLabel('Модель').inputValue()).resolves.toBe(name);
    await expect(edit.getByLabel('Цена за изображение, $').inputValue()).resolves.toBe('0.04');
    await edit.getByLabel('Цена ввода, $ за 1M токенов').fill('2.5');
    await edit.getByLabel('Цена за изображение, $').fill('');
    await edit.getByLabel('Активна').uncheck();
    await edit.getByRole('button', { name: 'Сохранить' }).click();
    await rowOf('Модели', 'Неактивна').filter({ hasText: name }).waitFor();
    await expect(rowOf('Модели', name).textContent()).resolves.toMatch(/2,50\s\$.*—/);

    await rowOf('Модели', name).getByRole('button', { name: 'Удалить' }).click();
    const confirm = dialog('Удаление модели');
    await expect(confirm.textContent()).resolves.toContain(`Вы уверены, что хотите удалить модель «${name}»?`);
    await screenshot(page, 'admin-models-delete');
    await confirm.getByRole('button', { name: 'Удалить' }).click();
    await rowOf('Модели', name).waitFor({ state: 'detached' });
  });

  test('a taken name shows the server’s message in the dialog', async () => {
    const name = uniqueName('gpt-dup');
    await api('POST', '/api/admin/models', { model: name, input_price_per_1m: 1, output_price_per_1m: 1 }, admin());
    await page.goto(`${stack.url}/admin/models`);
    await page.getByRole('button', { name: 'Добавить модель' }).click();
    const form = dialog('Добавить модель');
    await form.getByLabel('Модель').fill(name);
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await expect(form.locator('.alert-danger').textContent()).resolves.toBe(`Модель ${name} уже существует`);
  });
});

describe('/admin/sysvals', () => {
  test('add, view, edit (value only) and delete a setting', async () => {
    const key = uniqueName('max_tokens_per_request');
    await page.goto(`${stack.url}/admin/sysvals`);
    await rowOf('Настройки', 'credit_markup').waitFor();
    await screenshot(page, 'admin-sysvals-list');
    await page.getByRole('button', { name: 'Добавить настройку' }).click();
    const form = dialog('Добавить настройку');
    await expect(form.getByLabel('Ключ').getAttribute('placeholder')).resolves.toBe('max_tokens_per_request');
    await form.getByRole('button', { name: 'Добавить' }).click();
    for (const id of ['sys-val-key', 'sys-val-value']) {
      await expect(form.locator(`#${id} ~ .invalid-feedback`).textContent()).resolves.toBe('Заполните все поля');
    }
    await screenshot(page, 'admin-sysvals-invalid');
    await form.getByLabel('Ключ').fill(key);
    await form.getByLabel('Значение').fill('4096');
    await form.getByRole('button', { name: 'Добавить' }).click();
    await rowOf('Настройки', key).waitFor();

    await rowOf('Настройки', key).getByRole('button', { name: 'Просмотр' }).click();
    await expect(dialog('Настройка').textContent()).resolves.toMatch(new RegExp(`${key}.*4096`));
    await dialog('Настройка').getByRole('button', { name: 'Закрыть' }).last().click();

    await rowOf('Настройки', key).getByRole('button', { name: 'Редактировать' }).click();
    const edit = dialog('Редактировать настройку');
    await expect(edit.getByLabel('Ключ').getAttribute('readonly')).resolves.not.toBeNull();
    await edit.getByLabel('Значение').fill('8192');
    await screenshot(page, 'admin-sysvals-edit');
    await edit.getByRole('button', { name: 'Сохранить' }).click();
    await rowOf('Настройки', '8192').filter({ hasText: key }).waitFor();

    await rowOf('Настройки', key).getByRole('button', { name: 'Удалить' }).click();
    const confirm = dialog('Удаление настройки');
    await expect(confirm.textContent()).resolves.toContain(`Вы уверены, что хотите удалить настройку «${key}»?`);
    await confirm.getByRole('button', { name: 'Удалить' }).click();
    await rowOf('Настройки', key).waitFor({ state: 'detached' });
  });
});

describe('/admin/history', () => {
  let alice: BotUser;
  let bob: BotUser;
  const marker = uniqueName('e2e');
  const sent: HistoryMessage[] = [];

  beforeAll(async () => {
    const model = uniqueName('gpt-hist');
    await api('POST', '/api/admin/models', { model, input_price_per_1m: 2.5, output_price_per_1m: 10 }, admin());
    alice = await telegramUser(`alice_${marker}`, 'Алиса', 'Иванова');
    bob = await telegramUser(`bob_${marker}`, 'Борис', null);
    sent.push(await record(alice, model, `${marker} Что на этой картинке?`, 'Это градиент.', png(320, 200)));
    sent.push(await record(bob, model, `${marker} Рецепт борща`, 'Свёкла, капуста, картофель.'));
    sent.push(await record(alice, model, `${marker} Спасибо!`, 'Пожалуйста!', undefined, 'web'));
    sent.push(await record(alice, model, `${marker} Ещё вопрос про борщ`, 'Добавьте сметану.'));
  }, 60_000);

  test('prefilled by userId, filtered by username and text, with image preview', async () => {
    await page.goto(`${stack.url}/admin/history?userId=${alice.id}`);
    await expect(page.getByLabel('ID пользователя').inputValue()).resolves.toBe(String(alice.id));
    await rowOf('История сообщений', 'Ещё вопрос про борщ').waitFor();
    await waitForRows(3);
    // One name per person, the same as on the dashboard and in the users table: the username first.
    await expect(rowOf('История сообщений', 'Спасибо').textContent()).resolves.toContain(`@alice_${marker}`);
    await expect(rowOf('История сообщений', 'Спасибо').textContent()).resolves.not.toContain('Алиса Иванова');
    // Each message says which door it came through.
    await expect(rowOf('История сообщений', 'Спасибо').textContent()).resolves.toContain('Откуда: веб-чат');
    await expect(rowOf('История сообщений', 'Ещё вопрос').textContent()).resolves.toContain('Откуда: Telegram');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `admin-history-door-${width}`);
    }
    await page.setViewportSize({ width: 1400, height: 900 });
    await screenshot(page, 'admin-history-user');

    await resetFilters();
    await page.getByLabel('Имя пользователя').fill(`BOB_${marker}`);
    await page.waitForURL(/username=/);
    await waitForRows(1);
    await rowOf('История сообщений', 'Рецепт борща').waitFor();

    await resetFilters();
    await page.getByLabel('Текст сообщения').fill('борщ');
    await page.getByLabel('Текст сообщения').press('Enter');
    await page.waitForURL(/message=/);
    await waitForRows(2);
    const texts = await historyRows().allTextContents();
    expect(texts.every((text) => /борщ/i.test(text))).toBe(true);
    await screenshot(page, 'admin-history-text');

    await resetFilters();
    await page.getByLabel('Текст сообщения').fill(marker);
    const withImage = rowOf('История сообщений', 'Что на этой картинке');
    await withImage.waitFor();
    await withImage.getByRole('button', { name: 'Открыть изображение' }).click();
    const preview = dialog('Изображение');
    const image = preview.getByRole('img');
    await image.waitFor();
    await expect(image.evaluate((img: HTMLImageElement) => img.naturalWidth)).resolves.toBe(320);
    await screenshot(page, 'admin-history-preview');
    await preview.getByRole('button', { name: 'Закрыть' }).last().click();
  });

  test('the detail shows the bot’s Markdown answer as Telegram showed it, escaped; the table keeps plain text', async () => {
    const guest = await telegramUser(null, 'Гость', null);
    const model = sent[0]!.model;
    const answer =
      '**Тестовый ответ** и `код`\n\n> цитата <script>window.hacked = 1</script> [ссылка](javascript:alert(1))';
    const message = await record(guest, model, `${marker} Markdown`, answer);
    await page.goto(`${stack.url}/admin/history?userId=${guest.id}`);
    const row = rowOf('История сообщений', 'Markdown');
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('Гость');
    await row.getByRole('button', { name: 'Просмотр' }).click();
    await detailShows(message.id);
    const shown = dialog('Сообщение').getByTestId('bot-answer');
    await expect(shown.locator('b').textContent()).resolves.toBe('Тестовый ответ');
    await expect(shown.locator('code').textContent()).resolves.toBe('код');
    await expect(shown.locator('blockquote').textContent()).resolves.toContain('<script>window.hacked = 1</script>');
    await expect(shown.textContent()).resolves.not.toContain('**');
    await expect(shown.locator('a, script').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (window as { hacked?: number }).hacked)).resolves.toBeUndefined();
    await screenshot(page, 'admin-history-detail-markdown');
  });

  test('the detail walks prev / next within the user, disabled at both ends, and zooms the image', async () => {
    const [first, , second, third] = sent;
    await page.goto(`${stack.url}/admin/history?userId=${alice.id}`);
    await rowOf('История сообщений', 'Ещё вопрос про борщ').getByRole('button', { name: 'Просмотр' }).click();
    const detail = dialog('Сообщение');
    await detailShows(third!.id);
    const prev = detail.getByRole('button', { name: '← Предыдущее' });
    const next = detail.getByRole('button', { name: 'Следующее →' });
    await expect(detail.textContent()).resolves.toMatch(/Общая стоимость/);
    await settled(prev);
    await settled(next);
    await expect(prev.isDisabled()).resolves.toBe(true);
    await expect(next.isEnabled()).resolves.toBe(true);
    await screenshot(page, 'admin-history-detail');

    await settled(next);
    await next.click();
    await detailShows(second!.id);
    await expect(detail.textContent()).resolves.toContain('Спасибо!');
    await settled(next);
    await next.click();
    await detailShows(first!.id);
    await expect(detail.textContent()).resolves.toContain('Что на этой картинке');
    await settled(next);
    await expect(next.isDisabled()).resolves.toBe(true);
    await expect(prev.isEnabled()).resolves.toBe(true);

    await detail.getByRole('button', { name: 'Открыть изображение' }).click();
    const zoom = dialog('Изображение');
    await zoom.getByRole('img').waitFor();
    await zoom.getByRole('button', { name: 'Увеличить' }).click();
    await zoom.getByRole('button', { name: 'Уменьшить' }).waitFor();
    await screenshot(page, 'admin-history-zoom');
    await zoom.getByRole('button', { name: 'Закрыть' }).last().click();

    await prev.click();
    await detailShows(second!.id);
    await detail.getByRole('button', { name: 'Закрыть' }).last().click();
    await detail.waitFor({ state: 'detached' });
  });

  /** Bob's history downloaded by one of the export buttons: the file's name and bytes. */
  async function exported(button: string) {
    await page.goto(`${stack.url}/admin/history?userId=${bob.id}`);
    await rowOf('История сообщений', 'Рецепт борща').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: button }).click(),
    ]);
    const { readFile } = await import('node:fs/promises');
    return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
  }

  test('the export button downloads the filtered list as CSV', async () => {
    const { name, bytes } = await exported('Экспорт CSV');
    expect(name).toMatch(/^history-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = bytes.toString('utf8').trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Рецепт борща');
  });

  test('«Экспорт для Excel» downloads what Russian Excel opens: BOM, «;», decimal commas, Moscow time', async () => {
    const { name, bytes } = await exported('Экспорт для Excel');
    expect(name).toMatch(/^history-\d{4}-\d{2}-\d{2}-excel\.csv$/);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, row] = bytes
      .toString('utf8')
      .slice(1)
      .trim()
      .split('\r\n')
      .map((line) => line.split(';'));
    const cell = (name: string) => row![header!.indexOf(name)];
    const message = sent.find((m) => m.user_message.endsWith('Рецепт борща'))!;
    expect(cell('Сообщение')).toBe(message.user_message);
    expect(cell('Стоимость ($)')).toBe(message.total_cost.replace('.', ','));
    expect(cell('Стоимость ($)')).toMatch(/^\d+,\d+$/);
    // Moscow is UTC+3 all year: 21:05:09 UTC on 23.11 is «24.11.2026 00:05:09».
    const moscow = new Date(Date.parse(message.created_at) + 3 * 3600_000).toISOString();
    expect(cell('Дата (МСК)')).toBe(`${moscow.slice(0, 10).split('-').reverse().join('.')} ${moscow.slice(11, 19)}`);
  });
});
