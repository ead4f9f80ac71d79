import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ArticleCard, ArticlesListResponse, SelectOption } from '@gpt/contracts';
import { startTestService } from '@gpt/kit/testing';
import { loadContentConfig } from '../src/config';
import { contentService } from '../src/service';
import { type ContentClient, type ContentService, contentClient, hoursFromNow, startContent } from './support';

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent();
  api = contentClient(content);
});
afterAll(() => content.stop());

const slugsOf = (body: ArticlesListResponse) => body.articles.map((article) => article.slug);

describe('seed', () => {
  test('on a fresh database, then ai-trends and gpt-guide are published with categories and tags', async () => {
    const { status, body } = await api.get<ArticlesListResponse>('/api/articles');
    expect(status).toBe(200);
    const guide = body.articles.find((article) => article.slug === 'gpt-guide');
    const trends = body.articles.find((article) => article.slug === 'ai-trends');
    expect(guide).toMatchObject({
      title: 'Как пользоваться GPT: руководство для начинающих',
      categories: ['Руководства'],
      tags: expect.arrayContaining(['GPT', 'Промпты', 'Telegram']),
    });
    expect(trends).toMatchObject({ title: 'Тренды искусственного интеллекта', categories: ['Нейросети'] });
    expect(trends?.reading_time).toBeGreaterThanOrEqual(2);
  });

  test('when the service starts again on the same database, then the admin’s deletion of a seed article stands', async () => {
    const trends = await api.get<{ article: { id: number } }>('/api/articles/ai-trends');
    await api.admin('DELETE', `/api/admin/articles/${trends.body.article.id}`);
    const again = await startTestService(
      contentService,
      loadContentConfig,
      {},
      { databaseUrl: content.deps.config.SERVICE_DATABASE_URL },
    );
    try {
      const { body } = await contentClient(again).get<ArticlesListResponse>('/api/articles');
      expect(slugsOf(body)).toContain('gpt-guide');
      expect(slugsOf(body)).not.toContain('ai-trends');
      expect(slugsOf(body).filter((slug) => slug === 'gpt-guide')).toHaveLength(1);
    } finally {
      await again.stop();
    }
  });
});

describe('GET /api/articles visibility', () => {
  test('when articles are draft, archived or scheduled for later, then lists and the page do not show them', async () => {
    const category = await api.createCategory();
    const visible = await api.createArticle({ category_ids: [category.id] });
    const draft = await api.createArticle({ category_ids: [category.id], status: 'draft' });
    const archived = await api.createArticle({ category_ids: [category.id], status: 'archived' });
    const scheduled = await api.createArticle({ category_ids: [category.id], published_at: hoursFromNow(2) });

    const byCategory = await api.get<ArticlesListResponse>(`/api/articles/category/${category.slug}`);
    expect(slugsOf(byCategory.body)).toEqual([visible.slug]);
    const all = await api.get<ArticlesListResponse>('/api/articles?limit=50');
    expect(slugsOf(all.body)).toContain(visible.slug);
    for (const hidden of [draft, archived, scheduled]) {
      expect(slugsOf(all.body)).not.toContain(hidden.slug);
      const page = await api.get(`/api/articles/${hidden.slug}`);
      expect(page).toEqual({ status: 404, body: { error: 'Статья не найдена', code: 'article_not_found' } });
    }
  });
});

describe('GET /api/articles pagination', () => {
  let categorySlug: string;
  let newestFirst: string[];

  beforeAll(async () => {
    const category = await api.createCategory();
    categorySlug = category.slug;
    const created = [];
    for (let i = 0; i < 14; i++) {
      created.push(await api.createArticle({ category_ids: [category.id], published_at: hoursFromNow(-1 - i) }));
    }
    newestFirst = created.map((article) => article.slug);
  });

  test('without a limit, then 12 per page, newest first, with page, limit, total and pages', async () => {
    const first = await api.get<ArticlesListResponse>(`/api/articles/category/${categorySlug}`);
    expect(first.body.success).toBe(true);
    expect(slugsOf(first.body)).toEqual(newestFirst.slice(0, 12));
    expect(first.body.pagination).toEqual({ page: 1, limit: 12, total: 14, pages: 2 });
    const second = await api.get<ArticlesListResponse>(`/api/articles/category/${categorySlug}?page=2`);
    expect(slugsOf(second.body)).toEqual(newestFirst.slice(12));
  });

  test('when the page is past the end, then an empty list with the real total', async () => {
    const { body } = await api.get<ArticlesListResponse>(`/api/articles/category/${categorySlug}?page=9&limit=5`);
    expect(body.articles).toEqual([]);
    expect(body.pagination).toEqual({ page: 9, limit: 5, total: 14, pages: 3 });
  });

  test('when the limit is huge, then it is capped at 50; when it is not a number, then 400 in Russian', async () => {
    const capped = await api.get<ArticlesListResponse>(`/api/articles?limit=100000`);
    expect(capped.body.pagination.limit).toBe(50);
    const bad = await api.get('/api/articles?limit=abc&page=1');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_error', error: expect.stringContaining('Размер страницы') });
    expect((await api.get('/api/articles?page=0')).status).toBe(400);
  });
});

describe('filters and cards', () => {
  test('a card carries its tags and categories as names and the author fields', async () => {
    const [first, second] = [await api.createCategory({ name: 'Альфа' + Date.now() }), await api.createCategory()];
    const tags = [await api.createTag(), await api.createTag(), await api.createTag(), await api.createTag()];
    const article = await api.createArticle({
      category_ids: [first!.id, second!.id],
      tag_ids: tags.map((tag) => tag.id),
      excerpt: 'Коротко о главном',
    });
    const { body } = await api.get<ArticlesListResponse>(`/api/articles/tag/${tags[0]!.slug}`);
    const card = body.articles[0] as ArticleCard;
    expect(card).toEqual({
      id: article.id,
      slug: article.slug,
      title: article.title,
      excerpt: 'Коротко о главном',
      featured_image: null,
      reading_time: 1,
      view_count: 0,
      published_at: article.published_at,
      author_first_name: null,
      author_last_name: null,
      author_username: null,
      tags: tags.map((tag) => tag.name).sort(),
      categories: [first!.name, second!.name].sort(),
    });
    expect(card).not.toHaveProperty('content');
  });

  test('the tag list shows only articles with that tag; unknown category and tag slugs are 404', async () => {
    const tag = await api.createTag();
    const tagged = await api.createArticle({ tag_ids: [tag.id] });
    await api.createArticle();
    const { body } = await api.get<ArticlesListResponse>(`/api/articles/tag/${tag.slug}`);
    expect(slugsOf(body)).toEqual([tagged.slug]);
    expect(await api.get('/api/articles/category/no-such-category')).toEqual({
      status: 404,
      body: { error: 'Категория не найдена', code: 'category_not_found' },
    });
    expect(await api.get('/api/articles/tag/no-such-tag')).toEqual({
      status: 404,
      body: { error: 'Тег не найден', code: 'tag_not_found' },
    });
  });
});

describe('GET /api/article_categories/select and /api/article_tags/select', () => {
  test('options carry id, name, slug and the count of visible articles, the most used first', async () => {
    const popular = await api.createTag();
    const unused = await api.createTag();
    await api.createArticle({ tag_ids: [popular.id] });
    await api.createArticle({ tag_ids: [popular.id] });
    await api.createArticle({ tag_ids: [popular.id, unused.id], status: 'draft' });

    const { status, body } = await api.get<{ success: boolean; tags: SelectOption[] }>('/api/article_tags/select');
    expect(status).toBe(200);
    const popularOption = body.tags.find((tag) => tag.id === popular.id);
    const unusedOption = body.tags.find((tag) => tag.id === unused.id);
    expect(popularOption).toEqual({ id: popular.id, name: popular.name, slug: popular.slug, article_count: 2 });
    expect(unusedOption?.article_count).toBe(0);
    expect(body.tags.indexOf(popularOption!)).toBeLessThan(body.tags.indexOf(unusedOption!));

    const categories = await api.get<{ success: boolean; categories: SelectOption[] }>(
      '/api/article_categories/select',
    );
    expect(categories.body.success).toBe(true);
    expect(categories.body.categories.map((category) => category.slug)).toEqual(
      expect.arrayContaining(['guides', 'neural-networks']),
    );
  });
});
