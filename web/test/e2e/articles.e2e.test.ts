import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { RunningGateway } from '@gpt/gateway';
import type { Browser, Page } from 'playwright-core';
import type { ContentClient } from '../../../services/content/test/support';
import { screenshot } from '../support/browser';
import { type ContentSite, startContentSite } from '../support/content-site';
import { Tab } from '../support/tab';

let suite: ContentSite;
let api: ContentClient;
let site: RunningGateway;
let browser: Browser;
const tab = new Tab(
  () => browser,
  () => site.url,
  { permissions: ['clipboard-read', 'clipboard-write'] },
);
let page: Page;

beforeAll(async () => {
  suite = await startContentSite();
  ({ api, site, browser } = suite);
});
afterAll(() => suite?.close());

async function openPage(width = 1280) {
  page = await tab.open({ width, height: 900 });
  // Shorter than the test's own timeout, so a stuck step names itself.
  page.setDefaultTimeout(10_000);
  return page;
}

const cardTitles = () => page.getByTestId('article-card').locator('h2').allTextContents();

/** Waits until the list of this URL query (e.g. 'category=guides', '' for all) has loaded. */
const listLoaded = (query: string) =>
  page.locator(`[data-testid="articles-results"][data-loaded="${query}"]`).waitFor();

describe('public articles in Chromium', () => {
  test('home → articles → search → open the article → share link and copied link', async () => {
    await openPage();
    await page.goto(`${site.url}/`);
    await page.getByRole('link', { name: 'Все статьи' }).click();
    await page.waitForURL(`${site.url}/articles`);
    await listLoaded('');
    await expect(cardTitles()).resolves.toEqual(
      expect.arrayContaining(['Тренды искусственного интеллекта', 'Как пользоваться GPT: руководство для начинающих']),
    );
    await screenshot(page, 'articles-list');

    await page.getByRole('searchbox', { name: 'Поиск по статьям' }).fill('запросы');
    await page.waitForURL(/\?q=%D0%B7/);
    await listLoaded(`q=${encodeURIComponent('запросы').replace(/%20/g, '+')}`);
    await expect(page.getByTestId('search-summary').textContent()).resolves.toContain('По запросу «запросы»');
    await screenshot(page, 'articles-search');

    await page.getByRole('link', { name: 'Как пользоваться GPT: руководство для начинающих' }).click();
    await page.waitForURL(`${site.url}/articles/gpt-guide`);
    await page.locator('.article-detail').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Как пользоваться GPT: руководство для начинающих',
    );
    await expect(page.locator('.article-detail').textContent()).resolves.toMatch(/1 просмотр/);
    await expect(page.getByRole('link', { name: '#Промпты' }).getAttribute('href')).resolves.toBe(
      '/articles?tag=prompts',
    );

    const share = await page.getByRole('link', { name: 'Поделиться в Telegram' }).getAttribute('href');
    const shareUrl = new URL(share!);
    expect(shareUrl.origin + shareUrl.pathname).toBe('https://t.me/share/url');
    expect(shareUrl.searchParams.get('url')).toBe(`${site.url}/articles/gpt-guide`);
    expect(shareUrl.searchParams.get('text')).toBe('Как пользоваться GPT: руководство для начинающих');

    await page.getByRole('button', { name: 'Копировать ссылку' }).click();
    await page.getByText('Ссылка скопирована').waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(`${site.url}/articles/gpt-guide`);
    await screenshot(page, 'article-detail');
  });

  test('category tabs and tag buttons: each clears the others and the search, and lives in the URL', async () => {
    await openPage();
    await page.goto(`${site.url}/articles?q=${encodeURIComponent('нейросети')}`);
    await page
      .getByRole('tab', { name: 'Руководства' })
      .or(page.getByRole('button', { name: 'Руководства' }))
      .click();
    await page.waitForURL(`${site.url}/articles?category=guides`);
    await listLoaded('category=guides');
    await expect(page.getByRole('searchbox').inputValue()).resolves.toBe('');
    await expect(cardTitles()).resolves.toEqual(['Как пользоваться GPT: руководство для начинающих']);

    await page.getByRole('button', { name: '#Тренды' }).click();
    await page.waitForURL(`${site.url}/articles?tag=trends`);
    await listLoaded('tag=trends');
    await expect(cardTitles()).resolves.toEqual(['Тренды искусственного интеллекта']);
    await expect(page.getByRole('button', { name: '#Тренды' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await screenshot(page, 'articles-tag');

    await page.getByRole('searchbox').fill('руководство');
    await page.waitForURL(/\?q=/);
    expect(new URL(page.url()).searchParams.get('tag')).toBeNull();
    await page.getByRole('button', { name: 'Очистить' }).click();
    await page.waitForURL(`${site.url}/articles`);

    await page.goBack();
    await page.waitForURL(/\?q=/);
    await page.goBack();
    await page.waitForURL(`${site.url}/articles?tag=trends`);
    await listLoaded('tag=trends');
    await expect(cardTitles()).resolves.toEqual(['Тренды искусственного интеллекта']);
  });

  test('paging with Back and Forward and «Страница X из Y»; card limits; the empty text', async () => {
    const category = await api.createCategory({ name: 'Постраничная' });
    const tags = await Promise.all([1, 2, 3, 4, 5].map(() => api.createTag()));
    const other = await api.createCategory();
    for (let i = 0; i < 13; i++) {
      await api.createArticle({
        title: `Страничная статья ${String(i + 1).padStart(2, '0')}`,
        published_at: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
        category_ids: [category.id, other.id],
        tag_ids: tags.map((tag) => tag.id),
      });
    }
    await openPage();
    await page.goto(`${site.url}/articles?category=${category.slug}`);
    await listLoaded(`category=${category.slug}`);
    await expect(page.getByTestId('articles-page').textContent()).resolves.toBe('Страница 1 из 2');
    await expect(page.getByTestId('article-card').count()).resolves.toBe(12);
    const firstCard = page.getByTestId('article-card').first();
    await expect(firstCard.locator('.article-card-tag').count()).resolves.toBe(3);
    await expect(firstCard.locator('.article-card-tag-more').textContent()).resolves.toBe('+2');
    await expect(firstCard.locator('.article-card-category').count()).resolves.toBe(2);
    await expect(page.getByRole('button', { name: '← Назад' }).isDisabled()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Вперёд →' }).click();
    await page.waitForURL(`${site.url}/articles?category=${category.slug}&page=2`);
    await listLoaded(`category=${category.slug}&page=2`);
    await expect(page.getByTestId('articles-page').textContent()).resolves.toBe('Страница 2 из 2');
    await expect(cardTitles()).resolves.toEqual(['Страничная статья 13']);
    await expect(page.getByRole('button', { name: 'Вперёд →' }).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'articles-page-2');

    await page.getByRole('searchbox').fill('несуществующееслово');
    await page.getByRole('heading', { name: 'Статьи не найдены' }).waitFor();
  });

  test('an unknown article shows «Статья не найдена»', async () => {
    await openPage(390);
    await page.goto(`${site.url}/articles/no-such-article`);
    await page.getByRole('heading', { name: 'Статья не найдена' }).waitFor();
    await screenshot(page, 'article-not-found-mobile');
  });
});

describe('SEO without JavaScript', () => {
  test('/articles/gpt-guide carries the article’s title and Open Graph tags in the HTML itself', async () => {
    const res = await fetch(`${site.url}/articles/gpt-guide`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Как пользоваться GPT: руководство для начинающих</title>');
    expect(html).toContain('<meta property="og:title" content="Как пользоваться GPT: руководство для начинающих">');
    expect(html).toMatch(/<meta property="og:description" content="Пошаговое руководство[^"]*">/);
    expect(html).toContain(`<link rel="canonical" href="${site.url}/articles/gpt-guide">`);
    expect(html).toContain('<meta name="keywords" content="как пользоваться GPT');
  });
});
