import { beforeEach, describe, expect, test } from '@jest/globals';
import { startTestStack } from '@gpt/deploy/testing';
import { callApi } from '../support/api';
import { screenshot } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { storeSession } from '../support/payers';

/** The admin «Рассылки» (docs/bot.md, Broadcasts), at 1 280 and 390 px. */
const site = browserSuite(() =>
  startTestStack({ ARGON2_MEMORY_KIB: '8192', ARGON2_TIME_COST: '1', RATE_LIMIT_LOGIN_POINTS: '1000' }),
);

async function signedIn(width: number, email: string, password: string) {
  await site.page.setViewportSize({ width, height: 900 });
  const login = await callApi<{ token: string; user: unknown }>(site.stack.url, 'POST', '/api/auth/login', {
    body: { email, password },
  });
  await storeSession(site.page, site.stack.url, login.body);
}

const history = () => site.page.locator('table[aria-label="История рассылок"] tbody tr');

describe.each([1280, 390])('at %i px', (width) => {
  beforeEach(() => signedIn(width, site.stack.admin.email, site.stack.admin.password));

  test('compose with a preview as Telegram shows it and the recipients counted, start it, watch it end in the history; schedule one, pause, resume and cancel it', async () => {
    await site.page.goto(`${site.stack.url}/admin`);
    if (width < 992) await site.page.getByRole('button', { name: 'Открыть меню' }).click();
    await site.page.getByRole('link', { name: 'Рассылки' }).click();
    await site.page.waitForURL(/\/admin\/broadcasts$/);
    await site.page.getByText('Получателей сейчас:').waitFor();

    const text = `**Новая модель** уже в боте — [подробнее](https://example.com/news) ${width}`;
    await site.page.getByLabel('Текст').fill(text);
    await site.page.getByLabel('Кнопка').selectOption('top_up');
    const preview = site.page.getByLabel('Предпросмотр сообщения');
    await preview.locator('b', { hasText: 'Новая модель' }).waitFor();
    // The button chosen last is drawn under the text once the preview has caught up with the form.
    await preview.getByText('Пополнить').waitFor();
    await expect(preview.locator('a').getAttribute('href')).resolves.toBe('https://example.com/news');
    await expect(preview.textContent()).resolves.toContain('Новости и акции');

    await site.page.getByLabel('UTM-метка').fill(`nobody-${width}`);
    await site.page.getByText('Получателей сейчас: 0').waitFor();
    await site.page.getByLabel('Доступно меньше, кредитов').fill('-1');
    await site.page.getByText(/Баланс ниже: не меньше 1 кредита/).waitFor();
    await site.page.getByLabel('Доступно меньше, кредитов').fill('');
    await site.page.getByText('Получателей сейчас: 0').waitFor();
    await screenshot(site.page, `admin-broadcasts-compose-${width}`);

    await site.page.getByRole('button', { name: 'Отправить мне' }).click();
    await site.page.getByText(/привяжите свой Telegram/).waitFor();

    await site.page.getByRole('button', { name: 'Запустить рассылку' }).click();
    const dialog = site.page.getByRole('dialog');
    await dialog.getByText('Получателей сейчас: 0').waitFor();
    await dialog.getByRole('button', { name: 'Запустить' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = history()
      .filter({ hasText: `${width}` })
      .first();
    await row.getByText('Завершена').waitFor({ timeout: 20_000 });
    await expect(row.textContent()).resolves.toContain(site.stack.admin.email);
    // The text as the user reads it, not its Markdown.
    await expect(row.textContent()).resolves.toContain(`Новая модель уже в боте — подробнее ${width}`);
    await expect(row.textContent()).resolves.not.toContain('**');

    await site.page.getByLabel('Текст').fill(`Запланированная ${width}`);
    await site.page.getByLabel('В назначенное время (МСК)').check();
    await site.page.getByLabel('Дата и время отправки по Москве').fill('2030-01-01T10:00');
    await site.page.getByRole('button', { name: 'Запланировать' }).click();
    await site.page.getByRole('dialog').getByRole('button', { name: 'Запланировать' }).click();
    const planned = history().filter({ hasText: `Запланированная ${width}` });
    await planned.getByText('01.01.2030, 10:00 МСК').waitFor();
    await planned.getByRole('button', { name: 'Пауза' }).click();
    await planned.getByText('На паузе').waitFor();
    await screenshot(site.page, `admin-broadcasts-history-${width}`);
    await planned.getByRole('button', { name: 'Продолжить' }).click();
    await planned.getByText('Запланирована').waitFor();
    await planned.getByRole('button', { name: 'Отменить' }).click();
    await planned.getByText('Отменена').waitFor();
  });
});
