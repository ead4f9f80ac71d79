import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ArticleDetailResponse, ArticlesListResponse } from '@gpt/contracts';
import { type RunningService, startService } from '@gpt/kit';
import { TEST_SECRETS, pgliteDataDir } from '@gpt/kit/testing';
import { type ContentConfig, loadContentConfig } from '../src/config';
import type { ContentDatabase } from '../src/data/schema';
import { contentService } from '../src/service';

/** The embedded default: PGlite files, the in-process bus and the in-memory store. */
let dataDir: string;
let content: RunningService<ContentConfig, ContentDatabase>;

beforeAll(async () => {
  dataDir = await pgliteDataDir('content-pglite');
  content = await startService(
    contentService,
    loadContentConfig({ ...TEST_SECRETS, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' }),
  );
}, 60_000);
afterAll(async () => {
  await content?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const get = async <T>(pathname: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${content.url}${pathname}`, { headers });
  return { status: res.status, body: (await res.json()) as T };
};

describe('content on PGlite (the embedded default)', () => {
  test('PGlite is what runs, and the seed articles are there', async () => {
    expect(content.deps.kv.kind).toBe('memory');
    const { body } = await get<ArticlesListResponse>('/api/articles');
    expect(body.articles.map((article) => article.slug).sort()).toEqual(['ai-trends', 'gpt-guide']);
  });

  test('full-text search with Russian stemming, prefixes and the partial-word fallback works the same', async () => {
    const slugs = async (q: string) =>
      (await get<ArticlesListResponse>(`/api/articles/search?q=${encodeURIComponent(q)}`)).body.articles.map(
        (article) => article.slug,
      );
    expect(await slugs('мультимодальная модель')).toEqual(['ai-trends']);
    expect(await slugs('запросам')).toEqual(expect.arrayContaining(['gpt-guide']));
    expect(await slugs('мультимод')).toEqual(['ai-trends']);
    expect(await slugs('льтимодал')).toEqual(['ai-trends']);
  });

  test('views count once per visitor within the window in the in-memory store; related articles are filled', async () => {
    const visitor = { 'X-Forwarded-For': '10.9.9.9', 'User-Agent': 'pglite-test' };
    const first = await get<ArticleDetailResponse>('/api/articles/gpt-guide', visitor);
    const again = await get<ArticleDetailResponse>('/api/articles/gpt-guide', visitor);
    expect(first.body.article.view_count).toBe(1);
    expect(again.body.article.view_count).toBe(1);
    expect(first.body.related.map((card) => card.slug)).toEqual(['ai-trends']);
  });
});
