import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { RunningGateway } from '@gpt/gateway';
import { signAccessToken } from '@gpt/kit';
import { startTestService, TEST_SECRETS, type TestService } from '@gpt/kit/testing';
import type { Browser, Page } from 'playwright-core';
import { type BillingConfig, loadBillingConfig } from '../../../services/billing/src/config';
import type { BillingDatabase } from '../../../services/billing/src/data/schema';
import { billingService } from '../../../services/billing/src/service';
import { type ContentService, startContent } from '../../../services/content/test/support';
import { launchChromium, screenshot } from '../support/browser';
import { startSite } from '../support/site';
import { Tab } from '../support/tab';

let content: ContentService;
let billing: TestService<BillingConfig, BillingDatabase>;
let site: RunningGateway;
let downSite: RunningGateway;
let browser: Browser;
const tab = new Tab(
  () => browser,
  () => site.url,
);
let page: Page;

beforeAll(async () => {
  [content, billing] = await Promise.all([startContent(), startTestService(billingService, loadBillingConfig)]);
  [site, downSite, browser] = await Promise.all([
    startSite({ CONTENT_URL: content.url, BILLING_URL: billing.url, TELEGRAM_BOT_USERNAME: 'gpt_test_bot' }),
    startSite(), // content and billing are down
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), downSite?.close()]);
  await Promise.all([content?.stop(), billing?.stop()]);
});

async function openPage(url: string, width = 1280) {
  page = await tab.open({ width, height: 900 });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  await page.goto(url);
  return page;
}

describe('public pages in Chromium', () => {
  test('home with no bot to reach: «Открыть бота» is disabled and says why, never a bare https://t.me/', async () => {
    page = await tab.open();
    const asked = page.waitForResponse((res) => res.url().endsWith('/api/telegram/info'));
    await page.goto(`${downSite.url}/`);
    expect((await asked).status()).toBeGreaterThanOrEqual(500);
    const bot = page.getByRole('button', { name: 'Открыть бота' }).first();
    await expect(bot.isDisabled()).resolves.toBe(true);
    await expect(bot.getAttribute('title')).resolves.toBe('Бот ещё не подключён к Telegram');
    await expect(page.locator('a[href="https://t.me/"]').count()).resolves.toBe(0);
  });

  test('home: hero buttons, tariff cards from billing, FAQ and the two article teasers', async () => {
    await openPage(`${site.url}/`);
    await expect(page.getByRole('link', { name: 'Начать бесплатно' }).first().getAttribute('href')).resolves.toBe(
      '/register',
    );
    const bot = page.locator('a', { hasText: 'Открыть бота' }).first();
    await expect(bot.getAttribute('href')).resolves.toBe('https://t.me/gpt_test_bot');
    await expect(bot.getAttribute('target')).resolves.toBe('_blank');
    for (const plan of ['Base', 'Premium', 'Elite']) await page.getByRole('heading', { name: plan }).waitFor();
    await page.getByText('1 250,00 ₽').first().waitFor();
    await expect(
      page.getByRole('link', { name: 'Тренды искусственного интеллекта' }).getAttribute('href'),
    ).resolves.toBe('/articles/ai-trends');
    await expect(
      page.getByRole('link', { name: 'Как пользоваться GPT: руководство для начинающих' }).getAttribute('href'),
    ).resolves.toBe('/articles/gpt-guide');
    await page
      .getByRole('button', { name: 'Частые вопросы' })
      .or(page.getByRole('heading', { name: 'Частые вопросы' }))
      .first()
      .waitFor();

    await page.getByRole('button', { name: /Узнать больше/ }).click();
    await page.waitForFunction(() => {
      const features = document.getElementById('features');
      return features !== null && Math.abs(features.getBoundingClientRect().top) < 5;
    });
    await screenshot(page, 'home-full');
  });

  test('pricing: three cards with the descriptions billing keeps', async () => {
    await openPage(`${site.url}/pricing`);
    await page.getByText('500 000 кредитов в месяц, генерация изображений').waitFor();
    await expect(page.locator('.tariff-card').count()).resolves.toBe(3);
    await screenshot(page, 'pricing');
  });

  test('FAQ, offer (26.06.2025) and privacy (152-ФЗ) carry their texts', async () => {
    await openPage(`${site.url}/faq`);
    await page.getByRole('button', { name: 'Можно ли вернуть деньги?' }).click();
    await page.getByText('неизрасходованные купленные кредиты можно вернуть').waitFor();
    await screenshot(page, 'faq');

    await page.goto(`${site.url}/offer`);
    await page.getByText('Последнее обновление: 26.06.2025').waitFor();
    for (const heading of [
      'Стороны и общие положения',
      'Предмет договора',
      'Тарифы и стоимость услуг',
      'Порядок оплаты',
      'Возврат средств',
      'Ответственность сторон',
    ]) {
      await page.getByRole('heading', { name: new RegExp(heading) }).waitFor();
    }
    await screenshot(page, 'offer');

    await page.goto(`${site.url}/privacy`);
    await page.getByText('№ 152-ФЗ «О персональных данных»').first().waitFor();
    await screenshot(page, 'privacy');
  });

  test('contact: every field is required; a sent message clears the form and is stored', async () => {
    await openPage(`${site.url}/contact`);
    await expect(page.getByLabel('Telegram').getAttribute('placeholder')).resolves.toBe('@username или номер');
    await expect(page.getByLabel('Сообщение').getAttribute('rows')).resolves.toBe('5');
    await page.getByRole('button', { name: 'Отправить' }).click();
    await expect(page.locator('.invalid-feedback:visible').count()).resolves.toBe(3);
    await screenshot(page, 'contact-invalid');

    const subject = `Вопрос ${Date.now()}`;
    await page.getByLabel('Telegram').fill('@ivan');
    await page.getByLabel('Тема').fill(subject);
    const message = page.getByLabel('Сообщение');
    const before = await message.evaluate((element) => element.clientHeight);
    await message.fill('Строка\n'.repeat(12));
    await expect(message.evaluate((element) => element.clientHeight)).resolves.toBeGreaterThan(before);
    await page.getByRole('button', { name: 'Отправить' }).click();
    await page.getByText('Спасибо! Ваше сообщение отправлено.').waitFor();
    await expect(page.getByLabel('Тема').inputValue()).resolves.toBe('');
    await expect(page.getByLabel('Сообщение').inputValue()).resolves.toBe('');
    const stored = await content.deps.db
      .selectFrom('feedback')
      .select('telegram')
      .where('subject', '=', subject)
      .execute();
    expect(stored).toEqual([{ telegram: '@ivan' }]);
    await screenshot(page, 'contact-sent');
  });

  test('contact: when the service does not answer, then «Ошибка отправки. Попробуйте позже.»', async () => {
    await openPage(`${downSite.url}/contact`);
    await page.getByLabel('Telegram').fill('@ivan');
    await page.getByLabel('Тема').fill('Тема');
    await page.getByLabel('Сообщение').fill('Текст');
    await page.getByRole('button', { name: 'Отправить' }).click();
    await page.getByText('Ошибка отправки. Попробуйте позже.').waitFor();
    await expect(page.getByLabel('Тема').inputValue()).resolves.toBe('Тема');
  });

  test('home without billing: the spec’s three plans still show', async () => {
    await openPage(`${downSite.url}/`, 390);
    for (const plan of ['Base', 'Premium', 'Elite']) await page.getByRole('heading', { name: plan }).waitFor();
    await screenshot(page, 'home-mobile-offline');
  });

  // Last: it adds a tariff, which the other tests' three cards would count.
  test('the offer and the FAQ state billing’s tariffs as they are now, in roubles and kopecks', async () => {
    const created = await fetch(`${billing.url}/api/admin/tariffs`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${signAccessToken({ sub: '1', role: 'admin', ver: 0 }, TEST_SECRETS.JWT_SECRET)}`,
      },
      body: JSON.stringify({ name: 'Студент', monthly_price: '99.90', credits_per_ruble: 150, included_credits: 5000 }),
    });
    expect(created.status).toBe(201);

    await openPage(`${site.url}/offer`);
    await page
      .getByText(
        'Тариф Студент — 99,90 ₽ в месяц: 150 кредитов за 1 ₽ пополнения, 5 000 включённых кредитов, без генерации изображений.',
      )
      .waitFor();
    await page.getByText('Тариф Premium — 350,00 ₽ в месяц').waitFor();

    await page.goto(`${site.url}/faq`);
    await page.getByRole('button', { name: 'Чем отличаются тарифы?' }).click();
    await page
      .getByText('Студент за 99,90 ₽ в месяц даёт 5 000 кредитов, 150 кредитов за 1 ₽ при пополнении.')
      .waitFor();
  });
});
