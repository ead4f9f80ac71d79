import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ArticleDetailResponse, ArticlesListResponse, TagSelectResponse } from '@gpt/contracts';
import {
  type ContentClient,
  type ContentService,
  buildArticle,
  contentClient,
  startContent,
  startReplica,
} from './support';

let content: ContentService;
let replica: ContentService;
let api: ContentClient;
let replicaApi: ContentClient;

beforeAll(async () => {
  content = await startContent();
  replica = await startReplica(content);
  api = contentClient(content);
  replicaApi = contentClient(replica);
});
afterAll(async () => {
  await replica.stop();
  await content.stop();
});

const titles = (body: ArticlesListResponse) => body.articles.map((article) => article.title);

/** Reads `path` until `seen` holds of its body; fails after a second (the promise of the issue). */
async function seenWithinASecond<T>(client: ContentClient, path: string, seen: (body: T) => boolean) {
  const deadline = Date.now() + 1000;
  for (;;) {
    const { body } = await client.get<T>(path);
    if (seen(body)) return;
    if (Date.now() > deadline) throw new Error(`${path} still not changed after 1 s: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('public reads kept until content changes', () => {
  test('when an article title is edited, then the list and the article page show it on this replica at once and on another within 1 s', async () => {
    const article = await api.createArticle();
    const list = '/api/articles?page=1&limit=50';
    expect(titles((await api.get<ArticlesListResponse>(list)).body)).toContain(article.title);
    expect(titles((await replicaApi.get<ArticlesListResponse>(list)).body)).toContain(article.title);
    await replicaApi.get(`/api/articles/${article.slug}`);

    const edited = `Новый заголовок ${article.slug}`;
    const res = await api.admin(
      'PUT',
      `/api/admin/articles/${article.id}`,
      buildArticle({ ...article, title: edited }),
    );
    expect(res.status).toBe(200);

    expect(titles((await api.get<ArticlesListResponse>(list)).body)).toContain(edited);
    expect((await api.get<ArticleDetailResponse>(`/api/articles/${article.slug}`)).body.article.title).toBe(edited);
    await seenWithinASecond<ArticlesListResponse>(replicaApi, list, (body) => titles(body).includes(edited));
    await seenWithinASecond<ArticleDetailResponse>(
      replicaApi,
      `/api/articles/${article.slug}`,
      (body) => body.article.title === edited,
    );
  });

  test('when an article is deleted or unpublished, then it leaves the lists and its page is 404', async () => {
    const [gone, hidden] = [await api.createArticle(), await api.createArticle()];
    const list = '/api/articles?page=1&limit=50';
    expect(titles((await replicaApi.get<ArticlesListResponse>(list)).body)).toEqual(
      expect.arrayContaining([gone.title, hidden.title]),
    );
    expect((await api.get(`/api/articles/${gone.slug}`)).status).toBe(200);

    expect((await api.admin('DELETE', `/api/admin/articles/${gone.id}`)).status).toBe(200);
    expect(
      (await api.admin('PUT', `/api/admin/articles/${hidden.id}`, buildArticle({ ...hidden, status: 'draft' }))).status,
    ).toBe(200);

    expect((await api.get(`/api/articles/${gone.slug}`)).status).toBe(404);
    expect((await api.get(`/api/articles/${hidden.slug}`)).status).toBe(404);
    await seenWithinASecond<ArticlesListResponse>(
      replicaApi,
      list,
      (body) => !titles(body).includes(gone.title) && !titles(body).includes(hidden.title),
    );
  });

  test('when a tag is renamed, then the select list and the cards show the new name', async () => {
    const tag = await api.createTag();
    const article = await api.createArticle({ tag_ids: [tag.id] });
    const path = `/api/articles/tag/${tag.slug}`;
    expect((await api.get<ArticlesListResponse>(path)).body.articles[0]?.tags).toEqual([tag.name]);
    expect((await api.get<TagSelectResponse>('/api/article_tags/select')).body.tags.map((t) => t.name)).toContain(
      tag.name,
    );

    const renamed = `${tag.name} (новое)`;
    expect(
      (
        await api.admin('PUT', `/api/admin/article_tags/${tag.id}`, {
          ...tag,
          name: renamed,
        })
      ).status,
    ).toBe(200);

    expect((await api.get<ArticlesListResponse>(path)).body.articles.map((a) => [a.slug, a.tags])).toEqual([
      [article.slug, [renamed]],
    ]);
    expect((await api.get<TagSelectResponse>('/api/article_tags/select')).body.tags.map((t) => t.name)).toContain(
      renamed,
    );
  });

  test('when a scheduled article’s time comes, then the list shows it without any write', async () => {
    const list = '/api/articles?page=1&limit=50';
    const scheduled = await api.createArticle({
      published_at: new Date(Date.now() + 1500).toISOString(),
    });
    expect(titles((await api.get<ArticlesListResponse>(list)).body)).not.toContain(scheduled.title);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(titles((await api.get<ArticlesListResponse>(list)).body)).toContain(scheduled.title);
  });
});

describe('ETag and 304', () => {
  test('when the client holds the current answer, then 304 without a body; after an edit, 200 with another ETag', async () => {
    const article = await api.createArticle();
    for (const path of [
      '/api/articles?page=1&limit=12',
      `/api/articles/${article.slug}`,
      '/api/article_categories/select',
    ]) {
      const first = await fetch(`${content.url}${path}`, {
        headers: { 'User-Agent': 'etag-test' },
      });
      const etag = first.headers.get('etag');
      expect(first.status).toBe(200);
      expect(etag).toMatch(/^".+"$/);
      expect(first.headers.get('cache-control')).toBe('public, no-cache');
      await first.arrayBuffer();

      const again = await fetch(`${content.url}${path}`, {
        headers: { 'If-None-Match': etag!, 'User-Agent': 'etag-test' },
      });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
    // Another replica holding the same list names it alike.
    const list = await fetch(`${content.url}/api/articles?page=1&limit=12`);
    const elsewhere = await fetch(`${replica.url}/api/articles?page=1&limit=12`, {
      headers: { 'If-None-Match': list.headers.get('etag')! },
    });
    expect(elsewhere.status).toBe(304);

    const before = (await fetch(`${content.url}/api/articles?page=1&limit=12`)).headers.get('etag')!;
    await api.admin(
      'PUT',
      `/api/admin/articles/${article.id}`,
      buildArticle({ ...article, title: `${article.title}!` }),
    );
    const after = await fetch(`${content.url}/api/articles?page=1&limit=12`, {
      headers: { 'If-None-Match': before },
    });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
  });
});
