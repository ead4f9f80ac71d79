import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { AdminArticle, ArticleCategory, ArticleTag } from '@gpt/contracts';
import { uniqueName } from '@gpt/kit/testing';
import { type ContentClient, type ContentService, contentClient, startContent } from './support';

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent();
  api = contentClient(content);
});
afterAll(() => content.stop());

const slug = () => uniqueName('s').replace(/_/g, '-');

describe('/api/admin/article_categories', () => {
  test('create with every field, list, update', async () => {
    const body = {
      name: 'Обзоры',
      slug: slug(),
      description: 'Сравнения моделей',
      meta_title: 'Обзоры нейросетей',
      meta_description: 'Честные сравнения',
    };
    const created = await api.admin<{ success: boolean; category: ArticleCategory }>(
      'POST',
      '/api/admin/article_categories',
      body,
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ success: true, category: { id: expect.any(Number), ...body } });
    const id = created.body.category.id;

    const list = await api.admin<{ categories: ArticleCategory[] }>('GET', '/api/admin/article_categories');
    expect(list.body.categories).toContainEqual({ id, ...body });

    const changed = { ...body, name: 'Обзоры и сравнения', description: '' };
    const updated = await api.admin<{ category: ArticleCategory }>(
      'PUT',
      `/api/admin/article_categories/${id}`,
      changed,
    );
    expect(updated).toEqual({
      status: 200,
      body: { success: true, category: { id, ...changed, description: null } },
    });
  });

  test('when name or slug is missing, then 400 "Заполните обязательные поля"; a bad slug is refused', async () => {
    const missing = await api.admin('POST', '/api/admin/article_categories', { name: '', description: 'x' });
    expect(missing).toMatchObject({ status: 400, body: { error: 'Заполните обязательные поля' } });
    const bad = await api.admin('POST', '/api/admin/article_categories', { name: 'Имя', slug: 'Плохой slug' });
    expect(bad.status).toBe(400);
  });

  test('when the name (in any case) or the slug is taken, then 409 saying which', async () => {
    const category = await api.createCategory({ name: `Уникальная ${slug()}` });
    const sameName = await api.admin('POST', '/api/admin/article_categories', {
      name: category.name.toUpperCase(),
      slug: slug(),
    });
    expect(sameName).toEqual({
      status: 409,
      body: { error: 'Категория с таким названием уже существует', code: 'category_name_taken' },
    });
    const other = await api.createCategory();
    const sameSlug = await api.admin('PUT', `/api/admin/article_categories/${other.id}`, {
      name: other.name,
      slug: category.slug,
    });
    expect(sameSlug).toEqual({
      status: 409,
      body: { error: 'Категория с таким slug уже существует', code: 'category_slug_taken' },
    });
  });

  test('deleting a category takes it off its articles; unknown ids are 404', async () => {
    const [kept, removed] = [await api.createCategory(), await api.createCategory()];
    const article = await api.createArticle({ category_ids: [kept.id, removed.id] });
    expect(await api.admin('DELETE', `/api/admin/article_categories/${removed.id}`)).toEqual({
      status: 200,
      body: { success: true },
    });
    const read = await api.admin<{ article: AdminArticle }>('GET', `/api/admin/articles/${article.id}`);
    expect(read.body.article.category_ids).toEqual([kept.id]);
    expect((await api.get(`/api/articles/category/${removed.slug}`)).status).toBe(404);
    expect(await api.admin('DELETE', `/api/admin/article_categories/${removed.id}`)).toEqual({
      status: 404,
      body: { error: 'Категория не найдена', code: 'category_not_found' },
    });
    expect((await api.admin('PUT', '/api/admin/article_categories/999999', { name: 'x', slug: 'x' })).status).toBe(404);
  });
});

describe('/api/admin/article_tags', () => {
  test('create, list, update; name and slug unique', async () => {
    const body = { name: `Нейро ${slug()}`, slug: slug(), description: 'Про нейросети' };
    const created = await api.admin<{ tag: ArticleTag }>('POST', '/api/admin/article_tags', body);
    expect(created).toEqual({ status: 201, body: { success: true, tag: { id: expect.any(Number), ...body } } });
    const id = created.body.tag.id;
    const list = await api.admin<{ tags: ArticleTag[] }>('GET', '/api/admin/article_tags');
    expect(list.body.tags).toContainEqual({ id, ...body });

    const updated = await api.admin<{ tag: ArticleTag }>('PUT', `/api/admin/article_tags/${id}`, {
      ...body,
      name: `${body.name}!`,
    });
    expect(updated.body.tag.name).toBe(`${body.name}!`);

    const dupName = await api.admin('POST', '/api/admin/article_tags', { name: `${body.name}!`, slug: slug() });
    expect(dupName.body).toEqual({ error: 'Тег с таким названием уже существует', code: 'tag_name_taken' });
    const dupSlug = await api.admin('POST', '/api/admin/article_tags', { name: 'Другое имя', slug: body.slug });
    expect(dupSlug.body).toEqual({ error: 'Тег с таким slug уже существует', code: 'tag_slug_taken' });
    const missing = await api.admin('POST', '/api/admin/article_tags', { slug: slug() });
    expect(missing).toMatchObject({ status: 400, body: { error: 'Заполните обязательные поля' } });
  });

  test('deleting a tag takes it off its articles', async () => {
    const tag = await api.createTag();
    const article = await api.createArticle({ tag_ids: [tag.id] });
    await api.admin('DELETE', `/api/admin/article_tags/${tag.id}`);
    const read = await api.admin<{ article: AdminArticle }>('GET', `/api/admin/articles/${article.id}`);
    expect(read.body.article.tags).toEqual([]);
    expect((await api.admin('DELETE', `/api/admin/article_tags/${tag.id}`)).body).toEqual({
      error: 'Тег не найден',
      code: 'tag_not_found',
    });
  });
});
