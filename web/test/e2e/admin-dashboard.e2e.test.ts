import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import type { RunningGateway } from '@gpt/gateway';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import {
  MetricsHarness,
  messageRecorded,
  moscow,
  newId,
  paymentSucceeded,
  userDeleted,
  userRegistered,
} from '../../../services/metrics/test/support/harness';
import { launchChromium, screenshot } from '../support/browser';
import { startSite } from '../support/site';

const DASH = '—';
const NBSP = /[\u00a0\u202f]/g;

let metrics: MetricsHarness;
let site: RunningGateway;
let downSite: RunningGateway;
let browser: Browser;
let page: Page | undefined;

// A browser, two gateways and a service on a machine other tests share: allow for a slow start.
beforeAll(async () => {
  metrics = await MetricsHarness.start();
  metrics.clock.now = new Date(moscow('2025-11-05 12:00')); // a Wednesday
  [site, downSite, browser] = await Promise.all([
    startSite({ METRICS_URL: metrics.service.url }),
    startSite(), // the metrics service is down
    launchChromium(),
  ]);
  await metrics.publish('user.registered', userRegistered({ created_at: moscow('2025-10-31 12:00') }));
  await metrics.publish('user.registered', userRegistered({ created_at: moscow('2025-11-03 09:00') }));
  await metrics.publish('user.registered', userRegistered({ created_at: moscow('2025-11-05 00:01') }));
  await metrics.publish('user.registered', userRegistered({ created_at: moscow('2025-11-05 11:00') }));
  await metrics.publish(
    'payment.succeeded',
    paymentSucceeded({ succeeded_at: moscow('2025-11-03 10:00'), amount: '1250.00' }),
  );
  await metrics.publish(
    'payment.succeeded',
    paymentSucceeded({ succeeded_at: moscow('2025-11-05 10:00'), amount: '350.00' }),
  );
  await metrics.publish(
    'message.recorded',
    messageRecorded({ created_at: moscow('2025-11-04 23:59'), total_cost: '0.010000' }),
  );
  await metrics.publish(
    'message.recorded',
    messageRecorded({
      created_at: moscow('2025-11-05 11:30'),
      username: 'anna_k',
      user_message: 'Привет! Сколько стоит Premium?',
      bot_response: 'Premium стоит 350 ₽ в месяц.',
      model: 'gpt-4o-mini',
      total_cost: '0.001234',
    }),
  );
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), downSite?.close()]);
  await metrics?.stop();
});
afterEach(async () => {
  await page?.close();
  page = undefined;
});

/** A page signed in as an admin (the token the gateway and metrics accept). */
async function adminPage(width = 1280, options: { fakeClock?: boolean } = {}): Promise<Page> {
  page = await browser.newPage({ viewport: { width, height: 900 } });
  page.setDefaultTimeout(60_000);
  if (options.fakeClock) await page.clock.install();
  await page.addInitScript((token) => {
    localStorage.setItem('token', token);
    localStorage.setItem('user', JSON.stringify({ id: 1, email: 'admin@example.com', role: 'admin' }));
  }, metrics.token());
  return page;
}

/** Every figure on the dashboard, by the field of the stats answer it shows. */
async function figures(p: Page): Promise<Record<string, string>> {
  const cells = await p
    .locator('[data-stat]')
    .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-stat') ?? '', node.textContent ?? '']));
  return Object.fromEntries(cells.map(([stat, text]) => [stat, (text ?? '').replace(NBSP, ' ')]));
}

const ALL_FIGURES = [
  'usersCount',
  'cpuUsage',
  'loadAverage',
  'uptimeSec',
  'memoryUsage',
  'totalMemory',
  'diskUsed',
  'diskTotal',
  ...['newUsers', 'messages', 'spent', 'deposited'].flatMap((f) => [`${f}Today`, `${f}Week`, `${f}Month`]),
  ...['username', 'created_at', 'model', 'total_cost', 'user_message', 'bot_response'].map((f) => `lastMessage.${f}`),
  // Billing's referral and subscription tiles: this site has no billing, so they stay dashes.
  'referralInvited',
  'referralPaying',
  'referralCredits',
  'subscriptionsActive',
  'subscriptionsMonthly',
  'subscriptionsCanceled',
];

function expectAllDashes(shown: Record<string, string>) {
  expect(Object.keys(shown).sort()).toEqual([...ALL_FIGURES].sort());
  for (const stat of ALL_FIGURES) expect([stat, shown[stat]]).toEqual([stat, DASH]);
}

const usersCount = (p: Page) => p.locator('[data-stat="usersCount"]');

describe('/admin dashboard in Chromium', () => {
  test('every figure is a dash until the stats arrive, then each shows its value, money in its currency', async () => {
    const p = await adminPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await p.route('**/api/admin/stats', async (route) => {
      await held;
      await route.continue();
    });
    await p.goto(`${site.url}/admin`);
    await p.getByRole('heading', { name: 'Дашборд' }).waitFor();
    expectAllDashes(await figures(p));

    release();
    await expect(usersCount(p).filter({ hasText: '4' }).waitFor()).resolves.toBeUndefined();
    const shown = await figures(p);
    expect(shown).toMatchObject({
      usersCount: '4',
      newUsersToday: '2',
      newUsersWeek: '3',
      newUsersMonth: '3',
      messagesToday: '1',
      messagesWeek: '2',
      messagesMonth: '2',
      spentToday: '0,00 $',
      spentWeek: '0,01 $',
      spentMonth: '0,01 $',
      depositedToday: '350,00 ₽',
      depositedWeek: '1 600,00 ₽',
      depositedMonth: '1 600,00 ₽',
      'lastMessage.username': '@anna_k',
      'lastMessage.model': 'gpt-4o-mini',
      'lastMessage.total_cost': '0,001234 $',
      'lastMessage.user_message': 'Привет! Сколько стоит Premium?',
      'lastMessage.bot_response': 'Premium стоит 350 ₽ в месяц.',
    });
    expect(shown['lastMessage.created_at']).toMatch(/^05\.11\.2025, \d\d:\d\d$/);
    expect(shown.uptimeSec).toMatch(
      /^\d+ (день|дня|дней) \d+ (час|часа|часов) \d+ (минута|минуты|минут) \d+ (секунда|секунды|секунд)$/,
    );
    expect(shown.cpuUsage).toMatch(/^\d+,\d\d %$/);
    expect(shown.loadAverage).toMatch(/^\d+,\d\d · \d+,\d\d · \d+,\d\d$/);
    for (const bytes of ['memoryUsage', 'totalMemory', 'diskUsed', 'diskTotal']) {
      expect(shown[bytes]).toMatch(/^\d+,\d\d (КБ|МБ|ГБ|ТБ)$/);
    }
    await expect(p.getByText('Ошибка получения статистики').count()).resolves.toBe(0);

    const chart = p.getByRole('img', { name: 'График: Сообщения по дням' });
    await chart.locator('canvas').waitFor();
    await p.getByRole('button', { name: 'Пополнено, ₽' }).click();
    await p.getByRole('img', { name: 'График: Пополнено, ₽ по дням' }).locator('canvas').waitFor();
    await screenshot(p, 'admin-dashboard');
  });

  test('when the stats are unavailable, then every figure is a dash under the banner «Ошибка получения статистики»', async () => {
    const p = await adminPage();
    await p.goto(`${downSite.url}/admin`);
    await p.getByRole('alert').filter({ hasText: 'Ошибка получения статистики' }).waitFor();
    expectAllDashes(await figures(p));
    await p.getByText('График недоступен').waitFor();
    await screenshot(p, 'admin-dashboard-unavailable');
  });

  test('every 10 s the dashboard refreshes: a new message appears within one refresh, a failure turns figures to dashes, and a hidden tab asks nothing', async () => {
    const p = await adminPage(1280, { fakeClock: true });
    const statsRequests: string[] = [];
    p.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/admin/stats') statsRequests.push(request.url());
    });
    await p.goto(`${site.url}/admin`);
    await p.locator('[data-stat="lastMessage.username"]', { hasText: 'anna_k' }).waitFor();

    await metrics.publish(
      'message.recorded',
      messageRecorded({ created_at: moscow('2025-11-05 11:45'), username: 'boris', user_message: 'Новое сообщение' }),
    );
    await p.clock.fastForward(10_000);
    await p.locator('[data-stat="lastMessage.user_message"]', { hasText: 'Новое сообщение' }).waitFor();
    await expect(p.locator('[data-stat="messagesToday"]').textContent()).resolves.toBe('2');

    // The tab goes to the background: no refresh however long it stays there.
    await p.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    const before = statsRequests.length;
    await p.clock.fastForward(35_000);
    await p.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(statsRequests.length).toBe(before);

    // Back in front, with the metrics database failing: the next refresh shows dashes and the banner.
    await sql`alter table daily_stats rename to daily_stats_away`.execute(metrics.db);
    try {
      await p.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      });
      await p.clock.fastForward(10_000);
      await p.getByRole('alert').filter({ hasText: 'Ошибка получения статистики' }).waitFor();
      expectAllDashes(await figures(p));
    } finally {
      await sql`alter table daily_stats_away rename to daily_stats`.execute(metrics.db);
    }
    expect(statsRequests.length).toBeGreaterThan(before);

    await p.clock.fastForward(10_000);
    await usersCount(p).filter({ hasText: '4' }).waitFor();
    await expect(p.getByText('Ошибка получения статистики').count()).resolves.toBe(0);
  });

  test('the chart library is fetched with the admin dashboard only, never by public pages', async () => {
    page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${site.url}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((script) => /stats-chart|dashboard/.test(script))).toEqual([]);
    await page.close();

    const p = await adminPage();
    p.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await p.goto(`${site.url}/admin`);
    await p.getByRole('img', { name: 'График: Сообщения по дням' }).locator('canvas').waitFor();
    expect(scripts.some((script) => /\/assets\/stats-chart-[\w-]+\.js$/.test(script))).toBe(true);
  });

  test('at 800 px the sidebar is a slide-out drawer with every entry of docs/product.md, Screens', async () => {
    const entries = [
      'Сайт',
      'Дашборд',
      'Пользователи',
      'Статьи',
      'Модели',
      'Тарифы',
      'Режимы',
      'История',
      'Платежи',
      'Подписки',
      'Промокоды',
      'Обращения',
      'Рассылки',
      'Настройки',
      'Журнал действий',
    ];
    const p = await adminPage(800);
    await p.goto(`${site.url}/admin`);
    await p.getByRole('heading', { name: 'Дашборд' }).waitFor();
    await expect(p.locator('.admin-sidebar').count()).resolves.toBe(0);
    await screenshot(p, 'admin-dashboard-800');

    await p.getByRole('button', { name: 'Открыть меню' }).click();
    const drawer = p.getByRole('dialog');
    await drawer.waitFor();
    const nav = drawer.getByRole('navigation', { name: 'Разделы админки' });
    await expect(nav.getByRole('link').allTextContents()).resolves.toEqual(entries);
    await screenshot(p, 'admin-drawer-800');

    await nav.getByRole('link', { name: 'Пользователи' }).click();
    await p.waitForURL(`${site.url}/admin/users`);
    await drawer.waitFor({ state: 'hidden' });

    // The breakpoint is 900 px: at 900 still a drawer, at 901 the sidebar.
    await p.setViewportSize({ width: 900, height: 900 });
    await p.getByRole('button', { name: 'Открыть меню' }).waitFor();
    await p.setViewportSize({ width: 901, height: 900 });
    const sidebar = p.locator('.admin-sidebar').getByRole('navigation', { name: 'Разделы админки' });
    await sidebar.waitFor();
    await expect(sidebar.getByRole('link').allTextContents()).resolves.toEqual(entries);
    await expect(p.getByRole('button', { name: 'Открыть меню' }).count()).resolves.toBe(0);
  });

  test('«Новые пользователи» never exceed «Пользователи»: deleted and merged-away sign-ups count in neither', async () => {
    const wednesday = metrics.clock.now;
    metrics.clock.now = new Date(moscow('2026-02-18 12:00'));
    try {
      const before = await metrics.stats();
      const signedUp = Array.from({ length: 6 }, () => newId());
      for (const userId of signedUp) {
        await metrics.publish(
          'user.registered',
          userRegistered({ user_id: userId, created_at: moscow('2026-02-18 09:00') }),
        );
      }
      const [kept, ...gone] = signedUp;
      for (const userId of gone.slice(0, 3)) {
        await metrics.publish('user.deleted', userDeleted(userId, moscow('2026-02-18 10:00')));
      }
      for (const userId of gone.slice(3)) {
        await metrics.publish('accounts.linked', {
          user_id: kept!,
          merged_user_id: userId,
          telegram_id: newId(),
          linked_at: moscow('2026-02-18 11:00'),
        });
      }
      const users = (before.usersCount as number) + 1;
      const p = await adminPage(800);
      await p.goto(`${site.url}/admin`);
      await usersCount(p)
        .filter({ hasText: String(users) })
        .waitFor();
      const shown = await figures(p);
      expect(shown).toMatchObject({ newUsersToday: '1', newUsersWeek: '1', newUsersMonth: '1' });
      expect(Number(shown.newUsersToday)).toBeLessThanOrEqual(Number(shown.usersCount));
      await screenshot(p, 'admin-dashboard-new-users-800');
    } finally {
      metrics.clock.now = wednesday;
    }
  });

  test('a spend above 1 000 $ shows in whole dollars, the exact sum in its tooltip, unclipped at 800 px', async () => {
    const wednesday = metrics.clock.now;
    metrics.clock.now = new Date(moscow('2026-01-14 12:00'));
    try {
      await metrics.publish(
        'message.recorded',
        messageRecorded({ created_at: moscow('2026-01-14 10:00'), total_cost: '12515.192710' }),
      );
      const p = await adminPage(800);
      await p.goto(`${site.url}/admin`);
      const spent = p.locator('[data-stat="spentToday"]');
      await spent.filter({ hasText: '12 515 $' }).waitFor();
      await expect(spent.getAttribute('title').then((title) => title?.replace(NBSP, ' '))).resolves.toBe(
        '12 515,19271 $',
      );
      const fits = await p
        .locator('[data-stat^="spent"], [data-stat^="deposited"]')
        .evaluateAll((cells) => cells.every((cell) => cell.scrollWidth <= cell.clientWidth));
      expect(fits).toBe(true);
      await screenshot(p, 'admin-dashboard-800');
    } finally {
      metrics.clock.now = wednesday;
    }
  });

  test('the last message names its author as everywhere and shows a cost of dollars to the cent, exact in its tooltip', async () => {
    await metrics.publish(
      'message.recorded',
      messageRecorded({
        created_at: moscow('2026-02-01 10:00'),
        username: null,
        user_name: 'Гость',
        telegram_id: 9_200_000_777,
        total_cost: '3.086418',
      }),
    );
    const p = await adminPage();
    await p.goto(`${site.url}/admin`);
    await p.locator('[data-stat="lastMessage.username"]', { hasText: 'Гость' }).waitFor();
    const cost = p.locator('[data-stat="lastMessage.total_cost"]');
    await expect(cost.textContent().then((text) => text?.replace(NBSP, ' '))).resolves.toBe('3,09 $');
    await expect(cost.getAttribute('title').then((title) => title?.replace(NBSP, ' '))).resolves.toBe('3,086418 $');
    await screenshot(p, 'admin-dashboard-last-message');
  });
});
