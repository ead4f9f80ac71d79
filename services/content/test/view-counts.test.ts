import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ArticleDetailResponse } from '@gpt/contracts';
import { sql } from 'kysely';
import { type ContentClient, type ContentService, contentClient, startContent, startReplica } from './support';

/** Views are stored only when a test flushes them (or a service stops). */
const NO_TIMED_FLUSH = { VIEW_FLUSH_MS: '3600000' };

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent(NO_TIMED_FLUSH);
  api = contentClient(content);
});
afterAll(() => content.stop());

let visitors = 0;
/** A visitor of its own: an address no other read uses. */
const visitor = () => {
  visitors += 1;
  return {
    'X-Forwarded-For': `10.${(visitors >> 16) & 255}.${(visitors >> 8) & 255}.${visitors & 255}`,
    'User-Agent': 'views-test',
  };
};

const read = (client: ContentClient, slug: string, headers: Record<string, string>) =>
  client.get<ArticleDetailResponse>(`/api/articles/${slug}`, headers);

const storedViews = async (id: number) =>
  (await api.admin<{ article: { view_count: number } }>('GET', `/api/admin/articles/${id}`)).body.article.view_count;

describe('article views: counted in memory, stored in batches', () => {
  test('when 60 visitors read concurrently on two replicas, each twice, then 60 views are stored, none lost or doubled', async () => {
    const replica = await startReplica(content, NO_TIMED_FLUSH);
    try {
      const replicaApi = contentClient(replica);
      const article = await api.createArticle();
      const readers = Array.from({ length: 60 }, (_, i) => ({
        client: i % 2 === 0 ? api : replicaApi,
        headers: visitor(),
      }));

      const reads = await Promise.all(
        [...readers, ...readers].map(({ client, headers }) => read(client, article.slug, headers)),
      );
      expect(reads.every((res) => res.status === 200)).toBe(true);
      // No row is written per view: nothing is stored before a flush.
      expect(await storedViews(article.id)).toBe(0);

      await Promise.all([content.deps.views.flush(), replica.deps.views.flush()]);
      expect(await storedViews(article.id)).toBe(60);
      // A second flush with nothing new adds nothing.
      await content.deps.views.flush();
      expect(await storedViews(article.id)).toBe(60);
      // This replica shows its own 30 views, stored or not; a new visitor counts once more.
      expect((await read(api, article.slug, visitor())).body.article.view_count).toBe(31);
    } finally {
      await replica.stop();
    }
  });

  test('when a flush fails, then the same views are stored by the next one, once', async () => {
    const article = await api.createArticle();
    for (let i = 0; i < 5; i++) await read(api, article.slug, visitor());
    const views = content.deps.views;

    await sql`alter table article_views rename to article_views_away`.execute(content.deps.db);
    try {
      await expect(views.flush()).rejects.toThrow();
      await read(api, article.slug, visitor());
    } finally {
      await sql`alter table article_views_away rename to article_views`.execute(content.deps.db);
    }
    await views.flush();
    expect(await storedViews(article.id)).toBe(6);
    expect((await read(api, article.slug, visitor())).body.article.view_count).toBe(7);
  });

  test('when the same visitor reads again after the window, then the view counts again', async () => {
    const shortWindow = await startReplica(content, { ...NO_TIMED_FLUSH, VIEW_WINDOW_SEC: '1' });
    try {
      const article = await api.createArticle();
      const reader = visitor();
      const client = contentClient(shortWindow);
      expect((await read(client, article.slug, reader)).body.article.view_count).toBe(1);
      expect((await read(client, article.slug, reader)).body.article.view_count).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await read(client, article.slug, reader)).body.article.view_count).toBe(2);
    } finally {
      await shortWindow.stop();
    }
  });

  test('when a replica stops, then the views it counted are stored', async () => {
    const replica = await startReplica(content, NO_TIMED_FLUSH);
    const article = await api.createArticle();
    for (let i = 0; i < 4; i++) await read(contentClient(replica), article.slug, visitor());
    await replica.stop();
    expect(await storedViews(article.id)).toBe(4);
  });
});
