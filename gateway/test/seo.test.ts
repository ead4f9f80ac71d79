import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import type { ArticleSeo } from '@gpt/contracts';
import { startTestGateway, type TestGateway } from './support/harness';

const INDEX_HTML =
  '<!doctype html><html lang="ru"><head><meta charset="UTF-8">' +
  '<meta name="description" content="Описание сайта"><title>GPT Бот</title></head>' +
  '<body><div id="root"></div></body></html>';

const GUIDE: ArticleSeo = {
  slug: 'gpt-guide',
  title: 'Как пользоваться GPT <для "всех">',
  description: 'Пошаговое руководство & советы',
  keywords: 'gpt, промпты',
  og_title: 'OG: как пользоваться GPT',
  og_description: 'OG-описание',
  og_image: '/images/guide.png',
  canonical_url: null,
  published_at: '2025-06-24T09:00:00.000Z',
  updated_at: '2025-06-25T10:00:00.000Z',
};

let webDir: string;
let gw: TestGateway;
let articles: Record<string, ArticleSeo>;
let contentDown: boolean;

beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'gw-seo-'));
  await writeFile(path.join(webDir, 'index.html'), INDEX_HTML);
  gw = await startTestGateway({ WEB_DIR: webDir, SITE_URL: 'https://gpt.example.ru/' });
  gw.upstreams.content.answer = (seen, reply) => {
    if (contentDown) {
      reply(500, { error: 'Внутренняя ошибка сервера', code: 'internal_error' });
      return true;
    }
    const seo = /^\/internal\/articles\/([^/]+)\/seo$/.exec(seen.url);
    if (seo) {
      const article = articles[seo[1]!];
      if (article) reply(200, { article });
      else reply(404, { error: 'Статья не найдена', code: 'article_not_found' });
      return true;
    }
    if (seen.url === '/internal/sitemap/articles') {
      reply(200, { articles: Object.values(articles).map(({ slug, updated_at }) => ({ slug, updated_at })) });
      return true;
    }
    return false;
  };
});
afterAll(async () => {
  await gw.close();
  await rm(webDir, { recursive: true, force: true });
});
beforeEach(() => {
  articles = { 'gpt-guide': GUIDE };
  contentDown = false;
});

const page = async (pathname: string) => {
  const res = await fetch(gw.url + pathname);
  return { status: res.status, html: await res.text(), type: res.headers.get('content-type') };
};

describe('GET /articles/{slug} (SEO head)', () => {
  test('the page carries the article’s title, description, keywords, Open Graph tags and canonical link', async () => {
    const { status, html } = await page('/articles/gpt-guide');
    expect(status).toBe(200);
    expect(html).toContain('<title>Как пользоваться GPT &lt;для &quot;всех&quot;&gt;</title>');
    expect(html).not.toContain('<title>GPT Бот</title>');
    expect(html).toContain('<meta name="description" content="Пошаговое руководство &amp; советы">');
    expect(html).not.toContain('Описание сайта');
    expect(html).toContain('<meta name="keywords" content="gpt, промпты">');
    expect(html).toContain('<meta property="og:type" content="article">');
    expect(html).toContain('<meta property="og:title" content="OG: как пользоваться GPT">');
    expect(html).toContain('<meta property="og:description" content="OG-описание">');
    expect(html).toContain('<meta property="og:url" content="https://gpt.example.ru/articles/gpt-guide">');
    expect(html).toContain('<meta property="og:image" content="https://gpt.example.ru/images/guide.png">');
    expect(html).toContain('<link rel="canonical" href="https://gpt.example.ru/articles/gpt-guide">');
    expect(html).toContain('<div id="root"></div>');
  });

  test('the article’s own canonical URL wins', async () => {
    articles['own-canonical'] = { ...GUIDE, slug: 'own-canonical', canonical_url: 'https://blog.example.ru/x' };
    const { html } = await page('/articles/own-canonical');
    expect(html).toContain('<link rel="canonical" href="https://blog.example.ru/x">');
  });

  test('when there is no such article, then 404 with the app page marked noindex', async () => {
    for (const slug of ['no-such-article', 'Bad_Slug']) {
      const { status, html } = await page(`/articles/${slug}`);
      expect(status).toBe(404);
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html).toContain('<div id="root"></div>');
    }
  });

  test('when the content service fails, then the plain app page, and the next request asks again', async () => {
    contentDown = true;
    const down = await page('/articles/fresh-article');
    expect(down.status).toBe(200);
    expect(down.html).toContain('<title>GPT Бот</title>');
    contentDown = false;
    articles['fresh-article'] = { ...GUIDE, slug: 'fresh-article', title: 'Свежая статья' };
    expect((await page('/articles/fresh-article')).html).toContain('<title>Свежая статья</title>');
  });

  test('heads are cached briefly: a second request does not ask the content service again', async () => {
    articles['cached-article'] = { ...GUIDE, slug: 'cached-article' };
    await page('/articles/cached-article');
    const asked = () => gw.upstreams.content.seen.filter((seen) => seen.url.includes('/cached-article/')).length;
    expect(asked()).toBe(1);
    await page('/articles/cached-article');
    expect(asked()).toBe(1);
  });

  test('when the article is edited, then its page shows the new head within 1 s', async () => {
    articles['edited-article'] = { ...GUIDE, slug: 'edited-article', title: 'Старый заголовок' };
    expect((await page('/articles/edited-article')).html).toContain('<title>Старый заголовок</title>');
    articles['edited-article'] = { ...GUIDE, slug: 'edited-article', title: 'Новый заголовок' };
    const edited = Date.now();
    while (!(await page('/articles/edited-article')).html.includes('<title>Новый заголовок</title>')) {
      expect(Date.now() - edited).toBeLessThan(1000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});

describe('GET /robots.txt and /sitemap.xml', () => {
  test('robots.txt keeps crawlers out of /admin and /dashboard and points at the sitemap', async () => {
    const { status, html: text, type } = await page('/robots.txt');
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    expect(text).toContain('User-agent: *\nDisallow: /admin\nDisallow: /dashboard\n');
    expect(text).toContain('Disallow: /reset-password/\nDisallow: /confirm-email\n');
    expect(text).toContain('Sitemap: https://gpt.example.ru/sitemap.xml');
  });

  test('sitemap.xml lists the public pages and the published articles', async () => {
    const { status, html: xml, type } = await page('/sitemap.xml');
    expect(status).toBe(200);
    expect(type).toContain('application/xml');
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    for (const pathname of ['/', '/pricing', '/faq', '/articles', '/offer', '/privacy', '/contact']) {
      expect(xml).toContain(`<url><loc>https://gpt.example.ru${pathname}</loc></url>`);
    }
    expect(xml).toContain(
      '<url><loc>https://gpt.example.ru/articles/gpt-guide</loc><lastmod>2025-06-25T10:00:00.000Z</lastmod></url>',
    );
    expect(xml).not.toContain('/admin');
  });
});
