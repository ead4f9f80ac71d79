import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ArticlesListResponse } from '@gpt/contracts';
import { type ContentClient, type ContentService, contentClient, startContent } from './support';

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent();
  api = contentClient(content);
});
afterAll(() => content.stop());

const search = async (q: string, extra = '') => {
  const res = await api.get<ArticlesListResponse>(`/api/articles/search?q=${encodeURIComponent(q)}${extra}`);
  expect(res.status).toBe(200);
  return { slugs: res.body.articles.map((article) => article.slug), body: res.body };
};

describe('GET /api/articles/search', () => {
  test('when searching "модели", then an article that only says "модель" is found (Russian stemming)', async () => {
    const article = await api.createArticle({
      title: 'Новый ориентир',
      content: '<p>Эта модель отвечает быстро и понимает вопросы о гидропонике.</p>',
    });
    const { slugs } = await search('модели гидропоники');
    expect(slugs).toEqual([article.slug]);
    expect((await search('модели')).slugs).toContain(article.slug);
  });

  test('when the word is in one title and in another body, then the title match ranks first', async () => {
    const inBody = await api.createArticle({
      title: 'Заметки садовода',
      content: '<p>Немного о том, как ухаживать за бегониями весной.</p>',
    });
    const inTitle = await api.createArticle({
      title: 'Бегонии на подоконнике',
      content: '<p>Уход за комнатными цветами.</p>',
    });
    expect((await search('бегония')).slugs).toEqual([inTitle.slug, inBody.slug]);
  });

  test('when the text is the start of a word, then prefix matching finds it', async () => {
    const article = await api.createArticle({ content: '<p>Рассказ о криптозоологии и её загадках.</p>' });
    expect((await search('криптозоо')).slugs).toEqual([article.slug]);
  });

  test('when the text is a part inside a word, then the partial-word fallback finds it', async () => {
    const article = await api.createArticle({ excerpt: 'Про суперконденсаторы простыми словами' });
    expect((await search('конденсатор')).slugs).toEqual([article.slug]);
    expect((await search('перконденс')).slugs).toEqual([article.slug]);
    expect((await search('перконденс прост')).slugs).toEqual([article.slug]);
    expect((await search('перконденс облак')).slugs).toEqual([]);
  });

  test('when a word was written only in a later version of an article, then its parts are found too', async () => {
    const article = await api.createArticle();
    await api.admin('PUT', `/api/admin/articles/${article.id}`, {
      title: article.title,
      slug: article.slug,
      content: '<p>Теперь о терраформировании Марса.</p>',
      status: 'published',
    });
    expect((await search('раформиров')).slugs).toEqual([article.slug]);
  });

  test('when q is blank or missing, then an empty list, not an error', async () => {
    for (const path of ['/api/articles/search?q=%20%20', '/api/articles/search']) {
      const { status, body } = await api.get<ArticlesListResponse>(path);
      expect(status).toBe(200);
      expect(body).toEqual({ success: true, articles: [], pagination: { page: 1, limit: 12, total: 0, pages: 0 } });
    }
  });

  test('when q holds tsquery operators and LIKE wildcards, then they are plain text: 200, nothing broken', async () => {
    const article = await api.createArticle({ title: 'Скидка 100% на всё' });
    for (const q of ["' & | ! :* ( ) <->", '%', '_', '\\', 'a:*b', '%%%_']) {
      const res = await api.get<ArticlesListResponse>(`/api/articles/search?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
    }
    expect((await search('100%')).slugs).toEqual([article.slug]);
    expect((await search('%')).slugs).toEqual([]);
  });

  test('drafts and archived articles are never found', async () => {
    await api.createArticle({ title: 'Черновик про аквапонику', status: 'draft' });
    await api.createArticle({ title: 'Архив про аквапонику', status: 'archived' });
    expect((await search('аквапоника')).slugs).toEqual([]);
  });

  test('results are paged like the lists', async () => {
    for (let i = 0; i < 3; i++) await api.createArticle({ title: `Фотосинтез, часть ${i + 1}` });
    const { body } = await search('фотосинтез', '&limit=2&page=2');
    expect(body.articles).toHaveLength(1);
    expect(body.pagination).toEqual({ page: 2, limit: 2, total: 3, pages: 2 });
  });
});
