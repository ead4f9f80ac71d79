import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ArticleDetailResponse } from '@gpt/contracts';
import { uniqueName } from '@gpt/kit/testing';
import { type ContentClient, type ContentService, contentClient, startContent } from './support';

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent();
  api = contentClient(content);
});
afterAll(() => content.stop());

/** A visitor of its own: an address and a browser no other test uses. */
const visitor = () => ({
  'X-Forwarded-For': `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  'User-Agent': uniqueName('browser'),
});

const read = (slug: string, headers: Record<string, string>) =>
  api.get<ArticleDetailResponse>(`/api/articles/${slug}`, headers);

describe('GET /api/articles/{slug}', () => {
  test('a published article comes with its content, meta fields, tags and categories', async () => {
    const category = await api.createCategory();
    const tag = await api.createTag();
    const article = await api.createArticle({
      category_ids: [category.id],
      tag_ids: [tag.id],
      content: '<h2>Заголовок</h2><p>Текст <strong>статьи</strong>.</p>',
      meta_title: 'Мета-заголовок',
      og_image: 'https://example.com/og.png',
    });
    const { status, body } = await read(article.slug, visitor());
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.article).toMatchObject({
      id: article.id,
      title: article.title,
      content: '<h2>Заголовок</h2><p>Текст <strong>статьи</strong>.</p>',
      meta_title: 'Мета-заголовок',
      meta_description: null,
      og_image: 'https://example.com/og.png',
      tags: [tag.name],
      categories: [category.name],
      view_count: 1,
    });
  });

  test('when the same visitor reloads, then the view counts once; another visitor counts again', async () => {
    const article = await api.createArticle();
    const first = visitor();
    expect((await read(article.slug, first)).body.article.view_count).toBe(1);
    expect((await read(article.slug, first)).body.article.view_count).toBe(1);
    expect((await read(article.slug, { ...first, 'User-Agent': uniqueName('other') })).body.article.view_count).toBe(2);
    expect((await read(article.slug, visitor())).body.article.view_count).toBe(3);
    await content.deps.views.flush();
    const admin = await api.admin<{ article: { view_count: number } }>('GET', `/api/admin/articles/${article.id}`);
    expect(admin.body.article.view_count).toBe(3);
  });

  test('related: published articles sharing the most categories and tags first, at most 3, never itself', async () => {
    const category = await api.createCategory();
    const [tagA, tagB] = [await api.createTag(), await api.createTag()];
    const main = await api.createArticle({ category_ids: [category.id], tag_ids: [tagA.id, tagB.id] });
    const sharesThree = await api.createArticle({ category_ids: [category.id], tag_ids: [tagA.id, tagB.id] });
    const sharesTwo = await api.createArticle({ tag_ids: [tagA.id, tagB.id] });
    const sharesOne = await api.createArticle({ tag_ids: [tagB.id] });
    const alsoOneButOlder = await api.createArticle({
      category_ids: [category.id],
      published_at: new Date(Date.now() - 86_400_000).toISOString(),
    });
    await api.createArticle({ category_ids: [category.id], tag_ids: [tagA.id], status: 'draft' });
    await api.createArticle();

    const { body } = await read(main.slug, visitor());
    expect(body.related.map((card) => card.slug)).toEqual([sharesThree.slug, sharesTwo.slug, sharesOne.slug]);
    expect(body.related[0]).not.toHaveProperty('content');
    const fromOlder = await read(alsoOneButOlder.slug, visitor());
    expect(fromOlder.body.related.map((card) => card.slug)).toEqual([sharesThree.slug, main.slug]);
  });

  test('when nothing shares a category or tag, then related is empty', async () => {
    const loner = await api.createArticle();
    expect((await read(loner.slug, visitor())).body.related).toEqual([]);
  });

  test('when the slug is unknown, then 404 "Статья не найдена"', async () => {
    expect(await read('no-such-article', visitor())).toEqual({
      status: 404,
      body: { error: 'Статья не найдена', code: 'article_not_found' },
    });
  });
});
