import type { AdminArticle, ArticleCategory, ArticleTag } from '@gpt/contracts';
import { signAccessToken } from '@gpt/kit';
import { startTestReplica, startTestService, uniqueName, type TestService } from '@gpt/kit/testing';
import { type ContentConfig, loadContentConfig } from '../src/config';
import type { ContentDatabase } from '../src/data/schema';
import type { ContentDeps } from '../src/deps';
import { contentService } from '../src/service';

export type ContentService = TestService<ContentConfig, ContentDatabase, ContentDeps>;

/** The content service on a fresh database, with its seed articles. */
export function startContent(env: Record<string, string> = {}): Promise<ContentService> {
  return startTestService(contentService, loadContentConfig, env);
}

/** Another replica of a running content service: its database and its Redis keys (and change channel). */
export const startReplica = (of: ContentService, env: Record<string, string> = {}): Promise<ContentService> =>
  startTestReplica(contentService, loadContentConfig, of, env);

/** A client of one running content service: JSON calls, optionally as an admin. */
export function contentClient(service: ContentService, adminId = 1) {
  const adminToken = signAccessToken({ sub: String(adminId), role: 'admin', ver: 0 }, service.deps.config.JWT_SECRET);

  async function call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  const admin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(method, path, { body, token: adminToken });

  return {
    adminToken,
    get: <T = Record<string, unknown>>(path: string, headers?: Record<string, string>) =>
      call<T>('GET', path, { headers }),
    call,
    admin,

    async createCategory(overrides: Partial<ArticleCategory> = {}): Promise<ArticleCategory> {
      const slug = uniqueName('cat').replace(/_/g, '-');
      const res = await admin<{ category: ArticleCategory }>('POST', '/api/admin/article_categories', {
        name: `Категория ${slug}`,
        slug,
        ...overrides,
      });
      if (res.status !== 201) throw new Error(`category not created: ${JSON.stringify(res.body)}`);
      return res.body.category;
    },

    async createTag(overrides: Partial<ArticleTag> = {}): Promise<ArticleTag> {
      const slug = uniqueName('tag').replace(/_/g, '-');
      const res = await admin<{ tag: ArticleTag }>('POST', '/api/admin/article_tags', {
        name: `Тег ${slug}`,
        slug,
        ...overrides,
      });
      if (res.status !== 201) throw new Error(`tag not created: ${JSON.stringify(res.body)}`);
      return res.body.tag;
    },

    /** A published article (unique slug) unless the overrides say otherwise. */
    async createArticle(overrides: Record<string, unknown> = {}): Promise<AdminArticle> {
      const res = await admin<{ article: AdminArticle }>('POST', '/api/admin/articles', buildArticle(overrides));
      if (res.status !== 201) throw new Error(`article not created: ${JSON.stringify(res.body)}`);
      return res.body.article;
    },
  };
}

export type ContentClient = ReturnType<typeof contentClient>;

/** The body of an article to create; every call has a unique slug and title. */
export function buildArticle(overrides: Record<string, unknown> = {}) {
  const slug = uniqueName('article').replace(/_/g, '-');
  return {
    title: `Статья ${slug}`,
    slug,
    content: '<p>Простой текст статьи о погоде и прогулках.</p>',
    status: 'published',
    ...overrides,
  };
}

/** An hour ago / from now, as ISO strings. */
export const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
