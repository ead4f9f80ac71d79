import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { AdminArticle, AdminArticlesResponse } from '@gpt/contracts';
import { signAccessToken } from '@gpt/kit';
import { type ContentClient, type ContentService, buildArticle, contentClient, startContent } from './support';

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent();
  api = contentClient(content);
});
afterAll(() => content.stop());

type ArticleAnswer = { article: AdminArticle };

describe('admin access', () => {
  test('without a token 401; with a user token 403 — the service checks too, not only the gateway', async () => {
    const userToken = signAccessToken({ sub: '77', role: 'user', ver: 0 }, content.deps.config.JWT_SECRET);
    for (const [method, path] of [
      ['GET', '/api/admin/articles'],
      ['POST', '/api/admin/articles'],
      ['PUT', '/api/admin/articles/1'],
      ['DELETE', '/api/admin/articles/1'],
      ['GET', '/api/admin/article_categories'],
      ['POST', '/api/admin/article_tags'],
    ] as const) {
      const body = method === 'GET' ? undefined : {};
      expect((await api.call(method, path, { body })).status).toBe(401);
      expect((await api.call(method, path, { body, token: userToken })).status).toBe(403);
    }
  });
});

describe('POST /api/admin/articles validation', () => {
  test('when title, slug or content is missing, then 400 "Заполните обязательные поля"', async () => {
    const res = await api.admin('POST', '/api/admin/articles', { title: ' ', content: '' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Заполните обязательные поля', code: 'validation_error' });
  });

  test('when the content is nothing but markup that is removed, then 400 "Заполните обязательные поля"', async () => {
    const res = await api.admin('POST', '/api/admin/articles', buildArticle({ content: '<script>alert(1)</script>' }));
    expect(res).toMatchObject({ status: 400, body: { error: 'Заполните обязательные поля' } });
  });

  test.each(['GPT-Guide', 'gpt guide', 'гайд', 'gpt--guide', '-gpt', 'gpt_guide'])(
    'when the slug is "%s", then 400: lowercase latin, digits and hyphens only',
    async (slug) => {
      const res = await api.admin('POST', '/api/admin/articles', buildArticle({ slug }));
      expect(res).toMatchObject({
        status: 400,
        body: { error: 'Slug может содержать только строчные латинские буквы, цифры и дефисы' },
      });
    },
  );

  test('when the slug is taken, then 409 on create and on update', async () => {
    const first = await api.createArticle();
    const second = await api.createArticle();
    const created = await api.admin('POST', '/api/admin/articles', buildArticle({ slug: first.slug }));
    expect(created).toEqual({
      status: 409,
      body: { error: 'Статья с таким slug уже существует', code: 'slug_taken' },
    });
    const updated = await api.admin('PUT', `/api/admin/articles/${second.id}`, buildArticle({ slug: first.slug }));
    expect(updated.status).toBe(409);
  });

  test('when reading_time is below 1 or not a whole number, then 400', async () => {
    for (const reading_time of [0, -3, 2.5, 'пять']) {
      const res = await api.admin('POST', '/api/admin/articles', buildArticle({ reading_time }));
      expect(res.status).toBe(400);
    }
  });

  test('when a category or tag id does not exist, then 400 naming it', async () => {
    const res = await api.admin('POST', '/api/admin/articles', buildArticle({ category_ids: [999999] }));
    expect(res).toEqual({ status: 400, body: { error: 'Категория не найдена: 999999', code: 'category_not_found' } });
    const tag = await api.admin('POST', '/api/admin/articles', buildArticle({ tag_ids: [888888] }));
    expect(tag.body).toEqual({ error: 'Тег не найден: 888888', code: 'tag_not_found' });
  });
});

describe('POST and PUT /api/admin/articles', () => {
  test('reading_time: computed from the text when not given (180 words a minute), kept when given', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `слово${i}`).join(' ');
    const computed = await api.createArticle({ content: `<p>${words}</p>` });
    expect(computed.reading_time).toBe(3);
    const given = await api.createArticle({ content: `<p>${words}</p>`, reading_time: 7 });
    expect(given.reading_time).toBe(7);
  });

  test('status: new articles are drafts; published_at is set on first publication and kept after', async () => {
    const body = buildArticle({ status: undefined });
    const created = await api.admin<ArticleAnswer>('POST', '/api/admin/articles', body);
    expect(created.body.article).toMatchObject({ status: 'draft', published_at: null, view_count: 0 });
    const id = created.body.article.id;

    const before = Date.now();
    const published = await api.admin<ArticleAnswer>('PUT', `/api/admin/articles/${id}`, {
      ...body,
      status: 'published',
    });
    const firstPublished = published.body.article.published_at!;
    expect(Date.parse(firstPublished)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(firstPublished)).toBeLessThanOrEqual(Date.now() + 1000);

    const archived = await api.admin<ArticleAnswer>('PUT', `/api/admin/articles/${id}`, {
      ...body,
      status: 'archived',
    });
    expect(archived.body.article).toMatchObject({ status: 'archived', published_at: firstPublished });
    const again = await api.admin<ArticleAnswer>('PUT', `/api/admin/articles/${id}`, { ...body, status: 'published' });
    expect(again.body.article.published_at).toBe(firstPublished);
    const draft = await api.admin<ArticleAnswer>('PUT', `/api/admin/articles/${id}`, { ...body, status: 'draft' });
    expect(draft.body.article.status).toBe('draft');
  });

  test('published_at given by the admin is kept as given', async () => {
    const article = await api.createArticle({ published_at: '2024-03-05T10:00:00.000Z' });
    expect(article.published_at).toBe('2024-03-05T10:00:00.000Z');
  });

  test('every field of the article is stored and read back; PUT replaces categories and tags', async () => {
    const [c1, c2] = [await api.createCategory(), await api.createCategory()];
    const [t1, t2] = [await api.createTag(), await api.createTag()];
    const fields = {
      excerpt: 'Анонс',
      meta_title: 'Мета',
      meta_description: 'Описание',
      meta_keywords: 'gpt, ии',
      og_title: 'OG заголовок',
      og_description: 'OG описание',
      og_image: 'https://example.com/og.png',
      canonical_url: 'https://example.com/articles/x',
      featured_image: '/images/cover.png',
    };
    const article = await api.createArticle({ ...fields, category_ids: [c1.id], tag_ids: [t1.id, t2.id] });
    expect(article).toMatchObject({ ...fields, category_ids: [c1.id], author_id: 1 });
    expect(article.tag_ids.sort()).toEqual([t1.id, t2.id].sort());
    expect(article.categories).toEqual([{ id: c1.id, name: c1.name, slug: c1.slug }]);

    const body = buildArticle({ slug: article.slug, category_ids: [c2.id], tag_ids: [] });
    const updated = await api.admin<ArticleAnswer>('PUT', `/api/admin/articles/${article.id}`, body);
    expect(updated.body.article).toMatchObject({ category_ids: [c2.id], tag_ids: [], excerpt: null });
    const read = await api.admin<ArticleAnswer>('GET', `/api/admin/articles/${article.id}`);
    expect(read.body.article).toEqual(updated.body.article);
  });

  test('concurrent edits of one article: each answer shows the article as that edit left it', async () => {
    const article = await api.createArticle();
    const titles = Array.from({ length: 40 }, (_, i) => `Правка номер ${i}`);
    const answers = await Promise.all(
      titles.map((title) =>
        api.admin<ArticleAnswer>(
          'PUT',
          `/api/admin/articles/${article.id}`,
          buildArticle({ slug: article.slug, title }),
        ),
      ),
    );
    expect(answers.map((res) => res.body.article.title)).toEqual(titles);
  });

  test('when the article does not exist, then PUT, GET and DELETE answer 404', async () => {
    expect((await api.admin('PUT', '/api/admin/articles/999999', buildArticle())).status).toBe(404);
    expect((await api.admin('GET', '/api/admin/articles/999999')).status).toBe(404);
    expect((await api.admin('DELETE', '/api/admin/articles/999999')).body).toEqual({
      error: 'Статья не найдена',
      code: 'article_not_found',
    });
    expect((await api.admin('GET', '/api/admin/articles/abc')).status).toBe(400);
  });

  test('DELETE removes the article from the admin and public reads', async () => {
    const article = await api.createArticle();
    expect(await api.admin('DELETE', `/api/admin/articles/${article.id}`)).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await api.get(`/api/articles/${article.slug}`)).status).toBe(404);
    expect((await api.admin('GET', `/api/admin/articles/${article.id}`)).status).toBe(404);
  });
});

describe('sanitizing', () => {
  test('scripts, event handlers, javascript: links, iframes and foreign styles are removed', async () => {
    const article = await api.createArticle({
      content:
        '<p onclick="steal()">Текст<script>alert(1)</script></p>' +
        '<img src="x" onerror="alert(2)">' +
        '<a href="javascript:alert(3)">ссылка</a>' +
        '<iframe src="https://evil.example"></iframe>' +
        '<p style="position: fixed; top: 0; text-align: center">По центру</p>' +
        '<a href="https://example.com" onmouseover="x()" style="color: red">ок</a>',
    });
    expect(article.content).toBe(
      '<p>Текст</p><a>ссылка</a><p style="text-align:center">По центру</p><a href="https://example.com">ок</a>',
    );
    const page = await api.get<{ article: { content: string } }>(`/api/articles/${article.slug}`);
    expect(page.body.article.content).toBe(article.content);
  });

  test('the editor’s formatting survives', async () => {
    const html =
      '<h1>H1</h1><h2>H2</h2><h3>H3</h3><h4>H4</h4><h5>H5</h5><h6>H6</h6>' +
      '<p style="text-align:right"><strong>жирный</strong> <em>курсив</em> <u>подчёркнутый</u> <s>зачёркнутый</s></p>' +
      '<ul><li>пункт</li></ul><ol><li>первый</li></ol>' +
      '<p><span style="color:#e03131">красный</span> <span style="background-color:#ffec99">маркер</span></p>' +
      '<p><a href="http://example.com">http</a> <a href="mailto:info@example.com">почта</a> ' +
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">https</a></p>' +
      '<p style="text-align:justify">по ширине</p>';
    const article = await api.createArticle({ content: html });
    expect(article.content).toBe(html);
  });

  test('a link opening a new tab always carries rel="noopener noreferrer nofollow"', async () => {
    const article = await api.createArticle({ content: '<p><a href="https://example.com" target="_blank">x</a></p>' });
    expect(article.content).toBe(
      '<p><a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">x</a></p>',
    );
  });

  test('bidirectional control characters are stripped from the text and the title', async () => {
    const article = await api.createArticle({
      title: 'Заголовок\u202Eнаоборот\u202C',
      content: '<p dir="rtl">abc\u2067def\u2069\u200F</p>',
      excerpt: '\u202Bанонс',
    });
    expect(article.title).toBe('Заголовокнаоборот');
    expect(article.content).toBe('<p>abcdef</p>');
    expect(article.excerpt).toBe('анонс');
  });
});

describe('GET /api/admin/articles', () => {
  test('default sort id ascending, total of all statuses, paging and sorting by a column', async () => {
    const made = [
      await api.createArticle({ title: 'Я последняя', status: 'draft' }),
      await api.createArticle({ title: 'А первая', status: 'archived' }),
    ];
    const { status, body } = await api.admin<AdminArticlesResponse>('GET', '/api/admin/articles?limit=50');
    expect(status).toBe(200);
    const ids = body.articles.map((article) => article.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toEqual(expect.arrayContaining(made.map((article) => article.id)));
    expect(body.total).toBe(ids.length);

    const firstPage = await api.admin<AdminArticlesResponse>('GET', '/api/admin/articles?page=1&limit=1');
    expect(firstPage.body.articles).toHaveLength(1);
    expect(firstPage.body.total).toBe(body.total);

    const byTitle = await api.admin<AdminArticlesResponse>(
      'GET',
      '/api/admin/articles?sortField=title&sortOrder=-1&limit=50',
    );
    const titles = byTitle.body.articles.map((article) => article.title);
    expect(titles[0]).toBe('Я последняя');
    expect(titles.at(-1)).toBe('А первая');
  });

  test('when sortField is not a column, then 400', async () => {
    const res = await api.admin('GET', '/api/admin/articles?sortField=content;drop');
    expect(res).toMatchObject({ status: 400, body: { error: 'Недопустимое поле сортировки' } });
  });
});
