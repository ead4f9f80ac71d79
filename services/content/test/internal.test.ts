import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ArticleSeoResponse, SitemapArticlesResponse } from '@gpt/contracts';
import { type ContentClient, type ContentService, contentClient, startContent } from './support';

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent();
  api = contentClient(content);
});
afterAll(() => content.stop());

describe('GET /internal/articles/{slug}/seo (for the gateway)', () => {
  test('the seed guide: its own meta fields; og falls back to them', async () => {
    const { status, body } = await api.get<ArticleSeoResponse>('/internal/articles/gpt-guide/seo');
    expect(status).toBe(200);
    expect(body.article).toMatchObject({
      slug: 'gpt-guide',
      title: 'Как пользоваться GPT: руководство для начинающих',
      description: expect.stringContaining('Пошаговое руководство'),
      keywords: expect.stringContaining('промпты'),
      og_title: 'Как пользоваться GPT: руководство для начинающих',
      og_image: null,
      canonical_url: null,
    });
    expect(body.article.og_description).toBe(body.article.description);
  });

  test('without meta fields: title, then excerpt, then the start of the text; og image from the cover', async () => {
    const withExcerpt = await api.createArticle({ excerpt: 'Анонс статьи', featured_image: '/img/cover.png' });
    const seo = await api.get<ArticleSeoResponse>(`/internal/articles/${withExcerpt.slug}/seo`);
    expect(seo.body.article).toMatchObject({
      title: withExcerpt.title,
      description: 'Анонс статьи',
      og_title: withExcerpt.title,
      og_description: 'Анонс статьи',
      og_image: '/img/cover.png',
      keywords: null,
    });
    const words = Array.from({ length: 60 }, (_, i) => `слово${i}`).join(' ');
    const textOnly = await api.createArticle({ content: `<p>${words}</p>` });
    const fromText = await api.get<ArticleSeoResponse>(`/internal/articles/${textOnly.slug}/seo`);
    expect(fromText.body.article.description).toMatch(/^слово0 слово1 .*…$/);
    expect(fromText.body.article.description.length).toBeLessThanOrEqual(160);
  });

  test('a draft has no SEO page and counts no view', async () => {
    const draft = await api.createArticle({ status: 'draft' });
    expect((await api.get(`/internal/articles/${draft.slug}/seo`)).status).toBe(404);
    const published = await api.createArticle();
    await api.get(`/internal/articles/${published.slug}/seo`);
    const admin = await api.admin<{ article: { view_count: number } }>('GET', `/api/admin/articles/${published.id}`);
    expect(admin.body.article.view_count).toBe(0);
  });
});

describe('GET /internal/sitemap/articles', () => {
  test('lists the published articles with their last change, never drafts', async () => {
    const published = await api.createArticle();
    const draft = await api.createArticle({ status: 'draft' });
    const { body } = await api.get<SitemapArticlesResponse>('/internal/sitemap/articles');
    const slugs = body.articles.map((entry) => entry.slug);
    expect(slugs).toEqual(expect.arrayContaining(['gpt-guide', 'ai-trends', published.slug]));
    expect(slugs).not.toContain(draft.slug);
    expect(body.articles.find((entry) => entry.slug === published.slug)?.updated_at).toBe(published.updated_at);
  });
});
