import { describe, expect, test } from '@jest/globals';
import type { CreatePaymentResponse } from '@gpt/contracts';
import { busOf, setWelcomeCredits } from '@gpt/deploy/testing';
import { sandboxDecisionCall, TEST_SECRETS, uniqueName } from '@gpt/kit/testing';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { screenshot } from '../support/browser';
import { browserSuite, signInAsAdmin } from '../support/browser-suite';
import { billingKnows, registeredPayer, storeSession } from '../support/payers';
import { startSelfAddressedStack } from '../support/site';

const BOT_KEY = TEST_SECRETS.BOT_API_KEY;

const site = browserSuite(async () => {
  // No YooKassa keys: payments go through the sandbox provider's page on the site itself.
  const stack = await startSelfAddressedStack(MANY_USERS_ENV);
  // Balances here count from 0: no welcome grant (welcome.e2e shows it).
  await setWelcomeCredits(stack, 0);
  return stack;
});

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(site.stack.url, method, path, options);

const signInAs = (session: { token: string; user: unknown }) => storeSession(site.page, site.stack.url, session);

async function createPayment(token: string, body: object): Promise<CreatePaymentResponse> {
  const res = await api<CreatePaymentResponse>('POST', '/api/billing/payments', { token, body });
  expect(res.status).toBe(201);
  return res.body;
}

/** Pays a sandbox payment the way its site.page does. */
async function paySandbox(payment: CreatePaymentResponse, decision: 'succeeded' | 'canceled' = 'succeeded') {
  const call = sandboxDecisionCall(payment.confirmation_url!, decision);
  const res = await api('POST', call.path, { body: call.body });
  expect(res.status).toBe(200);
}

const toast = (text: string) => site.page.locator('.toast').filter({ hasText: text });
const invalidFeedback = () => site.page.locator('.invalid-feedback:visible');
const rowOf = (table: string, text: string) =>
  site.page.locator(`table[aria-label="${table}"] tbody tr`).filter({ hasText: text });

describe('dashboard: paying through the sandbox provider', () => {
  test('top-up 150 ₽ → sandbox site.page → pay → the result site.page and the dashboard show the new balance', async () => {
    const user = await registeredPayer(site.stack);
    await signInAs(user);
    await site.page.goto(`${site.stack.url}/dashboard`);
    const main = site.page.getByRole('main');
    await main.getByRole('heading', { name: 'Пополнить баланс' }).waitFor();

    await main.getByLabel('Сумма пополнения').fill('0,5');
    await main.getByRole('button', { name: 'Пополнить' }).click();
    await expect(invalidFeedback().allTextContents()).resolves.toEqual(['Минимальная сумма пополнения 1 ₽']);
    // The quick amounts are the bot's packages, written as every sum is: roubles and kopecks.
    const quick = main.getByRole('button', { name: /^[\d\s]+,00 ₽$/ });
    const sums = (await quick.allTextContents()).map((text) => text.replace(/\s/g, ' '));
    expect(sums).toEqual(['100,00 ₽', '300,00 ₽', '500,00 ₽', '1 000,00 ₽']);
    await main.getByRole('button', { name: '300,00 ₽', exact: true }).click();
    await main.getByText('Будет зачислено 30 000 кредитов').waitFor();
    await main.getByLabel('Сумма пополнения').fill('150');
    await main.getByText('Будет зачислено 15 000 кредитов').waitFor();
    await screenshot(site.page, 'billing-dashboard-top-up');
    await main.getByRole('button', { name: 'Пополнить' }).click();

    await site.page.waitForURL(/\/payment\/sandbox\//);
    await site.page.getByText('Тестовый режим').waitFor();
    await expect(site.page.getByText('Пополнение баланса на 150,00\u00a0₽').isVisible()).resolves.toBe(true);
    await screenshot(site.page, 'billing-sandbox-page');
    await site.page.getByRole('button', { name: /Оплатить/ }).click();

    await site.page.waitForURL(/\/payment\/result\?payment_id=/);
    await site.page.getByText('Оплата прошла успешно').waitFor();
    await site.page.getByTestId('new-balance').getByText('15 000 кредитов').waitFor();
    await screenshot(site.page, 'billing-payment-result');

    await site.page.getByRole('link', { name: 'В личный кабинет' }).click();
    await site.page.waitForURL(`${site.stack.url}/dashboard`);
    const credits = site.page.locator('.info-item').filter({ hasText: /^Кредиты/ });
    await credits.getByText('15 000').waitFor();
    const available = site.page.locator('.info-item').filter({ hasText: /^Доступно/ });
    await available.getByText('15 000 кредитов').waitFor();
    await screenshot(site.page, 'billing-dashboard-after-top-up');
  }, 60_000);

  test('buy Premium → confirm → pay → the dashboard shows Premium with its included credits; cancel leaves nothing', async () => {
    const user = await registeredPayer(site.stack);
    await signInAs(user);
    await site.page.goto(`${site.stack.url}/dashboard`);
    // «Купить» asks first: what, the price, the credits; «Отмена» creates no payment.
    await site.page.getByRole('button', { name: 'Купить тариф Premium' }).click();
    const confirm = site.page.getByRole('dialog', { name: 'Покупка тарифа' });
    const summary = confirm.getByTestId('purchase-summary');
    await summary.getByText('Тариф «Premium» на 1 месяц.').waitFor();
    await expect(summary.getByText('350,00 ₽').isVisible()).resolves.toBe(true);
    await expect(summary.getByText('70 000 кредитов включено на месяц').isVisible()).resolves.toBe(true);
    await screenshot(site.page, 'billing-purchase-confirm');
    await confirm.getByRole('button', { name: 'Отмена' }).click();
    await confirm.waitFor({ state: 'detached' });
    const none = await api<{ total: number }>('GET', '/api/billing/payments', { token: user.token });
    expect(none.body.total).toBe(0);

    await site.page.getByRole('button', { name: 'Купить тариф Premium' }).click();
    await confirm.getByRole('button', { name: 'Оплатить' }).click();
    await site.page.waitForURL(/\/payment\/sandbox\//);
    await site.page.getByText('Тариф «Premium» на 1 месяц').waitFor();
    await site.page.getByRole('button', { name: /Оплатить/ }).click();
    await site.page.waitForURL(/\/payment\/result/);
    await site.page.getByText('Оплата прошла успешно').waitFor();
    await site.page.getByTestId('new-balance').getByText('+ 70 000 включённых кредитов').waitFor();
    await site.page.getByRole('link', { name: 'В личный кабинет' }).click();
    await site.page
      .locator('.info-item')
      .filter({ hasText: /^Тариф/ })
      .getByText('Premium')
      .first()
      .waitFor();
    await site.page.getByRole('button', { name: 'Продлить тариф Premium' }).waitFor();
    await screenshot(site.page, 'billing-dashboard-premium');

    await site.page.getByRole('button', { name: 'Купить тариф Elite' }).click();
    await site.page.getByRole('dialog', { name: 'Покупка тарифа' }).getByRole('button', { name: 'Оплатить' }).click();
    await site.page.waitForURL(/\/payment\/sandbox\//);
    await site.page.getByRole('button', { name: 'Отменить' }).click();
    await site.page.waitForURL(/\/payment\/result/);
    await site.page.getByText('Платёж отменён').waitFor();
    await screenshot(site.page, 'billing-payment-canceled');

    // The personal account's history: both purchases, newest first, with amount, status and receipt e-mail.
    await site.page.goto(`${site.stack.url}/dashboard`);
    const rows = site.page.getByTestId('payment-row');
    await rows.filter({ hasText: 'Тариф «Elite» на 1 месяц' }).getByText('Отменён').waitFor();
    await expect(rows.count()).resolves.toBe(2);
    // Intl writes no-break spaces: compared as plain ones.
    const rowText = async (n: number) => ((await rows.nth(n).textContent()) ?? '').replace(/\s/g, ' ');
    await expect(rowText(0)).resolves.toContain('1 250,00 ₽');
    const premium = await rowText(1);
    for (const part of ['Тариф «Premium» на 1 месяц', '350,00 ₽', 'Успешно', `Чек: ${user.email}`]) {
      expect(premium).toContain(part);
    }
  }, 60_000);

  test('the result page of another account’s payment says what is known, in calm words, and asks once', async () => {
    const payer = await registeredPayer(site.stack);
    const payment = await createPayment(payer.token, { amount: '100.00' });
    // A context of its own: the page's clock is faked, which a tab cannot undo.
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await storeSession(page, site.stack.url, await registeredPayer(site.stack));
      const asked: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes(`/api/billing/payments/${payment.payment_id}`)) asked.push(request.url());
      });
      await page.clock.install();
      await page.goto(`${site.stack.url}/payment/result?payment_id=${payment.payment_id}`);
      const notice = page.getByTestId('payment-of-another-account');
      await notice.getByText('оформлен не из этого аккаунта').waitFor();
      await expect(notice.getByText('вернитесь в бот').isVisible()).resolves.toBe(true);
      await expect(page.getByText('Платёж не найден').count()).resolves.toBe(0);
      await expect(page.locator('.alert-danger').count()).resolves.toBe(0);
      await screenshot(page, 'billing-payment-result-other-account');
      // Half a minute of the page's own time later, still the one request.
      await page.clock.runFor(30_000);
      expect(asked).toHaveLength(1);
    } finally {
      await page.close();
    }
  }, 60_000);
});

describe('/admin/tariffs', () => {
  test('create with the validation texts, view, edit, refusals as toasts, delete', async () => {
    await signInAsAdmin(site);
    await site.page.goto(`${site.stack.url}/admin/tariffs`);
    const table = site.page.locator('table[aria-label="Тарифы"]');
    await rowOf('Тарифы', 'Premium').waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBeGreaterThanOrEqual(3);
    await expect(rowOf('Тарифы', 'Premium').getByText('Активен').isVisible()).resolves.toBe(true);
    await screenshot(site.page, 'billing-admin-tariffs');

    await site.page.getByRole('button', { name: 'Добавить тариф' }).click();
    const dialog = site.page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Новый тариф' }).waitFor();
    const save = dialog.getByRole('button', { name: 'Сохранить' });
    await expect(save.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Название').fill('   ');
    await dialog.getByLabel('Кредитов за 1 ₽').fill('0');
    await expect(invalidFeedback().allTextContents()).resolves.toEqual([
      'Название обязательно',
      'Количество кредитов должно быть больше 0',
    ]);
    await expect(save.isDisabled()).resolves.toBe(true);
    await screenshot(site.page, 'billing-admin-tariff-validation');

    const name = `Команда ${uniqueName('t').slice(-6)}`;
    await dialog.getByLabel('Название').fill(name);
    await dialog.getByLabel('Кредитов за 1 ₽').fill('150');
    await dialog.getByLabel('Цена в месяц, ₽').fill('199.99');
    await dialog.getByLabel('Включённые кредиты').fill('1000');
    await dialog.getByLabel('Генерация изображений').check();
    await expect(invalidFeedback().count()).resolves.toBe(0);
    await save.click();
    await toast('Тариф создан').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const row = rowOf('Тарифы', name);
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/199,99\s₽/);

    await row.getByRole('button', { name: 'Просмотр' }).click();
    await site.page.getByRole('heading', { name: 'Информация о тарифе' }).waitFor();
    await expect(site.page.getByRole('dialog').getByText('Не указано').isVisible()).resolves.toBe(true);
    await screenshot(site.page, 'billing-admin-tariff-view');
    await site.page.getByRole('dialog').getByRole('button', { name: 'Закрыть' }).first().click();
    await site.page.getByRole('dialog').waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: 'Редактировать' }).click();
    await dialog.getByRole('heading', { name: 'Редактировать тариф' }).waitFor();
    await dialog.getByLabel('Название').fill('Premium');
    await save.click();
    await toast('Тариф с таким названием уже существует').waitFor();
    await dialog.getByLabel('Название').fill(name);
    await dialog.getByLabel('Цена в месяц, ₽').fill('249.5');
    await dialog.getByLabel('Активен').uncheck();
    await save.click();
    await toast('Тариф сохранен').waitFor();
    await expect(row.textContent()).resolves.toMatch(/249,50\s₽/);
    await row.getByText('Неактивен').waitFor();

    await rowOf('Тарифы', 'Base').getByRole('button', { name: 'Удалить' }).click();
    await site.page.getByRole('dialog').getByRole('button', { name: 'Удалить', exact: true }).click();
    await toast('Базовый тариф нельзя удалить').waitFor();
    await site.page.getByRole('dialog').getByRole('button', { name: 'Отмена' }).click();
    await site.page.getByRole('dialog').waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: 'Удалить' }).click();
    await site.page.getByRole('dialog').getByText(`Вы действительно хотите удалить тариф «${name}»?`).waitFor();
    await screenshot(site.page, 'billing-admin-tariff-delete');
    await site.page.getByRole('dialog').getByRole('button', { name: 'Удалить', exact: true }).click();
    await toast('Тариф удален').waitFor();
    await row.waitFor({ state: 'detached' });
  }, 60_000);
});

describe('/admin/payments', () => {
  test('a card payment is refunded after a confirmation; a Stars payment shows its stars and passes the provider filter', async () => {
    const web = await registeredPayer(site.stack);
    const paid = await createPayment(web.token, { amount: '120.00' });
    await paySandbox(paid);

    const telegramId = (Date.now() % 1_000_000_000) + 7;
    const botUser = await api<{ id: number }>('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, username: uniqueName('stars'), first_name: 'Звёздный' },
    });
    await billingKnows(site.stack, botUser.body.id);
    const invoice = await api<{ payload: string; star_amount: number }>('POST', '/api/bot/stars/invoices', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, amount: '300.00' },
    });
    expect(invoice.status).toBe(201);
    const starsPaid = await api('POST', '/api/bot/stars/payments', {
      botKey: BOT_KEY,
      body: {
        telegram_id: telegramId,
        invoice_payload: invoice.body.payload,
        currency: 'XTR',
        total_amount: invoice.body.star_amount,
        telegram_payment_charge_id: uniqueName('charge'),
      },
    });
    expect(starsPaid.status).toBe(200);

    await signInAsAdmin(site);
    await site.page.goto(`${site.stack.url}/admin/payments?userId=${botUser.body.id}`);
    const starsRow = rowOf('Платежи', '300,00');
    await starsRow.getByText('200 ⭐').waitFor();
    await expect(starsRow.getByText('Звёздами').isVisible()).resolves.toBe(true);

    await site.page.goto(`${site.stack.url}/admin/payments?userId=${web.id}`);
    const row = rowOf('Платежи', '120,00');
    await row.getByText('Картой').waitFor();
    await site.page.getByLabel('Способ оплаты').selectOption('telegram_stars');
    await row.waitFor({ state: 'detached' });
    await site.page.getByLabel('Способ оплаты').selectOption('yookassa');
    await row.getByRole('button', { name: 'Вернуть платёж' }).click();
    const dialog = site.page.getByRole('dialog', { name: 'Вернуть платёж' });
    await dialog.getByText('кредиты платежа (12 000) будут списаны').waitFor();
    // The refund asks why: without a reason it is not sent.
    await dialog.getByRole('button', { name: 'Вернуть платёж' }).click();
    await dialog.getByText('Укажите причину').waitFor();
    await dialog.getByLabel('Причина возврата').fill('Клиент передумал');
    await screenshot(site.page, 'billing-admin-payments-refund-confirm');
    await dialog.getByRole('button', { name: 'Вернуть платёж' }).click();
    await toast('Платёж возвращён').waitFor();
    await row.getByText('Возвращён').waitFor();
    await expect(row.getByRole('button', { name: 'Вернуть платёж' }).count()).resolves.toBe(0);
    await screenshot(site.page, 'billing-admin-payments-refunded');
    const balance = await api<{ credits: number }>('GET', '/api/billing/balance', { token: web.token });
    expect(balance.body.credits).toBe(0);
  }, 60_000);

  test('filters (userId from the query, username, status) and the detail with the provider id and metadata', async () => {
    const web = await registeredPayer(site.stack);
    const paid = await createPayment(web.token, { amount: '250.00' });
    await paySandbox(paid);
    const open = await createPayment(web.token, { amount: '99.90' });

    const telegramId = Date.now() % 1_000_000_000;
    const username = uniqueName('tg');
    const botUser = await api<{ id: number }>('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, username, first_name: 'Мария', last_name: 'Иванова' },
    });
    expect([200, 201]).toContain(botUser.status);
    await billingKnows(site.stack, botUser.body.id);
    const botPayment = await api<CreatePaymentResponse>('POST', '/api/bot/payments', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, tariff_id: 2, email: 'maria@example.com' },
    });
    expect(botPayment.status).toBe(201);

    await signInAsAdmin(site);
    await site.page.goto(`${site.stack.url}/admin/payments?userId=${web.id}`);
    await expect(site.page.getByLabel('ID пользователя').inputValue()).resolves.toBe(String(web.id));
    await rowOf('Платежи', '250,00').waitFor();
    await expect(site.page.locator('table[aria-label="Платежи"] tbody tr').count()).resolves.toBe(2);
    await expect(rowOf('Платежи', '250,00').getByText('Успешно').isVisible()).resolves.toBe(true);
    await expect(rowOf('Платежи', '99,90').getByText('Ожидает оплаты').isVisible()).resolves.toBe(true);
    await screenshot(site.page, 'billing-admin-payments-user');

    await site.page.getByLabel('Статус').selectOption('succeeded');
    await rowOf('Платежи', '99,90').waitFor({ state: 'detached' });
    await expect(site.page.locator('table[aria-label="Платежи"] tbody tr').count()).resolves.toBe(1);

    await site.page.getByRole('button', { name: 'Сбросить' }).click();
    await site.page.waitForFunction(
      () => (document.getElementById('payments-filter-user-id') as HTMLInputElement | null)?.value === '',
    );
    await site.page.getByLabel('Имя пользователя').fill(username.slice(0, -3).toUpperCase());
    const botRow = rowOf('Платежи', `@${username}`);
    await site.page.waitForFunction((name) => {
      const rows = [...document.querySelectorAll('table[aria-label="Платежи"] tbody tr')];
      return rows.length === 1 && rows[0]!.textContent!.includes(name);
    }, `@${username}`);
    await expect(botRow.textContent()).resolves.not.toContain('Мария Иванова');
    await screenshot(site.page, 'billing-admin-payments-username');

    await botRow.getByRole('button', { name: 'Просмотр' }).click();
    const detail = site.page.getByRole('dialog');
    await detail.getByRole('heading', { name: 'Информация о платеже' }).waitFor();
    await detail.getByText('ID платежа ЮKassa').waitFor();
    await expect(detail.getByText(botPayment.body.payment_id).first().isVisible()).resolves.toBe(true);
    // The metadata reads as labelled fields, not JSON.
    const metadata = detail.locator('.payment-metadata');
    await expect(metadata.textContent()).resolves.toContain(`Номер платежа${botPayment.body.payment_id}`);
    await expect(metadata.textContent()).resolves.toContain('Что оплаченоТариф');
    await expect(detail.textContent()).resolves.not.toMatch(/[{}"]/);
    await expect(detail.textContent()).resolves.toContain('maria@example.com');
    await expect(detail.textContent()).resolves.toContain('Тариф «Premium» на 1 месяц');
    await screenshot(site.page, 'billing-admin-payment-detail');
    expect(open.status).toBe('pending');
  }, 60_000);
});

describe('a linked customer is named by their e-mail', () => {
  test('a sandbox Telegram user («Гость») linked to a site account reads as its e-mail in payments and history, at 1280 and 390 px', async () => {
    const web = await registeredPayer(site.stack);
    const telegramId = 6_000_000_000 + Math.floor(Math.random() * 1e9);
    const botUser = await api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, first_name: 'Гость' },
    });
    expect(botUser.status).toBe(200);
    const link = await api<{ token: string }>('POST', '/api/bot/link-tokens', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId },
    });
    const linked = busOf(site.stack, 'chat-history').waitFor(
      'acked',
      (e) => e.type === 'accounts.linked' && (e.data as { user_id: number }).user_id === web.id,
    );
    expect((await api('POST', '/api/auth/link', { token: web.token, body: { token: link.body.token } })).status).toBe(
      200,
    );
    await linked;
    await paySandbox(await createPayment(web.token, { amount: '125.00' }));
    const message = await api('POST', '/api/bot/messages', {
      botKey: BOT_KEY,
      body: {
        telegram_id: telegramId,
        model: 'gpt-4o-mini',
        user_message: 'Вопрос гостя',
        input_tokens: 1,
        output_tokens: 1,
      },
    });
    expect(message.status).toBe(201);

    await signInAsAdmin(site);
    for (const width of [1280, 390]) {
      await site.page.setViewportSize({ width, height: 900 });
      await site.page.goto(`${site.stack.url}/admin/payments?userId=${web.id}`);
      const payment = rowOf('Платежи', '125,00');
      await payment.waitFor();
      await expect(payment.locator('.email-text').first().textContent()).resolves.toBe(web.email);
      await expect(payment.textContent()).resolves.not.toContain('Гость');
      await screenshot(site.page, `billing-admin-payments-linked-${width}`);
      await payment.getByRole('button', { name: 'Просмотр' }).click();
      const detail = site.page.getByRole('dialog');
      await detail.getByText(`${web.email} · ID ${web.id}`).waitFor();
      await expect(detail.textContent()).resolves.not.toContain('Гость');
      await detail.getByRole('button', { name: 'Закрыть' }).last().click();

      await site.page.goto(`${site.stack.url}/admin/history?userId=${web.id}`);
      const said = rowOf('История сообщений', 'Вопрос гостя');
      await said.waitFor();
      await expect(said.locator('.email-text').first().textContent()).resolves.toBe(web.email);
      await expect(said.textContent()).resolves.not.toContain('Гость');
      await screenshot(site.page, `billing-admin-history-linked-${width}`);
    }
  }, 90_000);
});
