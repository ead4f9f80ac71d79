import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { uniqueName } from '@gpt/kit/testing';
import type { Page } from 'playwright-core';
import type { ContentClient } from '../../../services/content/test/support';
import { screenshot } from '../support/browser';
import { type ContentSite, startContentSite } from '../support/content-site';
import { storeSession } from '../support/payers';
import { Tab } from '../support/tab';

/** The articles pages when things go wrong or there is little to show. */
let suite: ContentSite;
let api: ContentClient;
const tab = new Tab(
  () => suite.browser,
  () => suite.site.url,
);
let page: Page;

beforeAll(async () => {
  suite = await startContentSite();
  api = suite.api;
});
afterAll(() => suite?.close());

async function openPage(width = 1280) {
  page = await tab.open({ width, height: 900 });
  page.setDefaultTimeout(15_000);
  return page;
}

describe('/articles', () => {
  test('a failed load says so with «Повторить», which loads the list', async () => {
    const marker = uniqueName('retry');
    await api.createArticle({ title: `Статья ${marker}` });
    const p = await openPage();
    await p.route('**/api/articles?*', (route) => route.fulfill({ status: 500, body: '{}' }));
    await p.goto(`${suite.site.url}/articles`);
    await p.getByRole('heading', { name: 'Не удалось загрузить статьи' }).waitFor();
    await expect(p.getByText('Статьи не найдены').count()).resolves.toBe(0);
    await screenshot(p, 'articles-load-failed');

    await p.unroute('**/api/articles?*');
    await p.getByRole('button', { name: 'Повторить' }).click();
    await p.getByTestId('article-card').first().waitFor();
  });

  test('one page of results still shows the pager: «Страница 1 из 1» between disabled Back and Forward', async () => {
    const marker = uniqueName('single');
    await api.createArticle({ title: `Единственная ${marker}`, content: `<p>Текст ${marker}</p>` });
    const p = await openPage(390);
    await p.goto(`${suite.site.url}/articles?q=${marker}`);
    await p.getByTestId('article-card').first().waitFor();
    const pager = p.getByRole('navigation', { name: 'Страницы' });
    await expect(pager.getByTestId('articles-page').textContent()).resolves.toBe('Страница 1 из 1');
    await expect(pager.getByRole('button', { name: '← Назад' }).isDisabled()).resolves.toBe(true);
    await expect(pager.getByRole('button', { name: 'Вперёд →' }).isDisabled()).resolves.toBe(true);
    await screenshot(p, 'articles-one-page');
  });
});

describe('an article card', () => {
  test('its tag is a link to the tag’s list', async () => {
    const marker = uniqueName('tagged');
    const tag = await api.createTag({ name: `Тег${marker.slice(-6)}`, slug: `tag-${marker.replace(/_/g, '-')}` });
    await api.createArticle({ title: `С тегом ${marker}`, content: `<p>Текст ${marker}</p>`, tag_ids: [tag.id] });
    const p = await openPage();
    await p.goto(`${suite.site.url}/articles?q=${marker}`);
    const card = p.getByTestId('article-card').first();
    await card.getByRole('link', { name: `#${tag.name}` }).click();
    await p.waitForURL(`${suite.site.url}/articles?tag=${tag.slug}`);
    await p.getByTestId('article-card').filter({ hasText: marker }).waitFor();
  });
});

describe('/articles/{slug}', () => {
  test('a cover that does not load is hidden, not a broken image', async () => {
    const article = await api.createArticle({
      title: `Без обложки ${uniqueName('broken')}`,
      featured_image: 'http://127.0.0.1:9/missing-cover.png',
    });
    const p = await openPage();
    await p.goto(`${suite.site.url}/articles/${article.slug}`);
    await p.getByRole('heading', { name: article.title }).waitFor();
    await p.waitForFunction(() => document.querySelector('img[src*="missing-cover"]') === null);
  });

  test('a tall cover is capped, so the text starts above the fold', async () => {
    const article = await api.createArticle({
      title: `С обложкой ${uniqueName('cover')}`,
      featured_image: `${suite.site.url}/tall-cover.svg`,
      content: '<p>Первый абзац статьи.</p>',
    });
    const p = await openPage();
    // A portrait picture, twice as tall as wide.
    await p.route('**/tall-cover.svg', (route) =>
      route.fulfill({
        contentType: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="2000"><rect width="1000" height="2000" fill="#6366f1"/></svg>',
      }),
    );
    await p.goto(`${suite.site.url}/articles/${article.slug}`);
    const cover = p.locator('main img[src$="tall-cover.svg"]');
    await cover.waitFor();
    await p.waitForFunction(
      () => (document.querySelector('main img[src$="tall-cover.svg"]') as HTMLImageElement)?.complete,
    );
    expect((await cover.boundingBox())!.height).toBeLessThanOrEqual(420);
    const text = await p.getByText('Первый абзац статьи.').boundingBox();
    expect(text!.y).toBeLessThan(900);
    await screenshot(p, 'article-cover-capped');
  });
});

describe('the article form', () => {
  test('«Заполните обязательные поля» goes away once the fields are filled', async () => {
    const p = await openPage(1400);
    await storeSession(p, suite.site.url, {
      token: api.adminToken,
      user: { id: 1, email: 'admin@example.com', role: 'admin' },
    });
    await p.goto(`${suite.site.url}/admin/articles`);
    await p.getByRole('button', { name: 'Создать статью' }).click();
    const dialog = p.getByRole('dialog').filter({ hasText: 'Новая статья' });
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    const required = dialog.getByText('Заполните обязательные поля');
    await required.nth(2).waitFor();
    await expect(required.count()).resolves.toBe(3);
    await dialog.getByLabel('Заголовок *').fill(`Заполненная ${uniqueName('form')}`);
    // The slug follows the title, so only the content's message is left.
    await dialog.locator('.rte ~ .invalid-feedback').waitFor();
    await expect(required.count()).resolves.toBe(1);
    await dialog.getByRole('textbox', { name: 'Содержание статьи' }).fill('Текст статьи');
    await required.first().waitFor({ state: 'detached' });
  });
});
