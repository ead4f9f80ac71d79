import { type ArticleSeo, ArticleSeoResponse, SitemapArticlesResponse } from '@gpt/contracts';
import type { Logger } from '@gpt/kit';

/** How long the gateway waits for the content service before serving the page without article tags. */
const CONTENT_TIMEOUT_MS = 800;
/** How long an article's head (or its absence) is reused: an edit shows on the page within a second. */
const ARTICLE_TTL_MS = 500;
/** How long the sitemap is reused. */
const SITEMAP_TTL_MS = 60_000;
const MAX_CACHED_ARTICLES = 1000;
/** Slugs as the content service stores them; anything else cannot be an article. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The public pages listed in the sitemap besides the articles. */
const PUBLIC_PAGES = ['/', '/pricing', '/faq', '/articles', '/offer', '/privacy', '/contact'];

/** An article's head, null when there is no such published article, undefined when content did not answer. */
export type ArticleHeadLookup = ArticleSeo | null | undefined;

interface Cached<T> {
  expiresAt: number;
  value: Promise<T>;
}

/**
 * What the gateway asks the content service for its crawlers' pages: article heads and the
 * sitemap entries, over its /internal routes, each with a short timeout and a short cache.
 */
export function createSeoSource(options: { contentUrl: string; logger: Logger }) {
  const contentUrl = options.contentUrl.replace(/\/+$/, '');
  const articles = new Map<string, Cached<ArticleHeadLookup>>();
  let sitemap: Cached<SitemapArticlesResponse['articles']> | undefined;
  let lastSitemap: SitemapArticlesResponse['articles'] | undefined;

  const getJson = async (path: string): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${contentUrl}${path}`, {
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(CONTENT_TIMEOUT_MS),
    });
    return { status: res.status, body: res.status === 200 ? await res.json() : await res.arrayBuffer() };
  };

  const fetchArticle = async (slug: string): Promise<ArticleHeadLookup> => {
    try {
      const { status, body } = await getJson(`/internal/articles/${slug}/seo`);
      if (status === 404) return null;
      if (status !== 200) throw new Error(`content answered ${status}`);
      return ArticleSeoResponse.parse(body).article;
    } catch (err) {
      options.logger.warn({ err, slug }, 'article head unavailable; serving the page without it');
      return undefined;
    }
  };

  return {
    /** The head of a published article; a failed lookup is not cached, so the next request tries again. */
    article(slug: string): Promise<ArticleHeadLookup> {
      if (!SLUG.test(slug) || slug.length > 200) return Promise.resolve(null);
      const now = Date.now();
      const hit = articles.get(slug);
      if (hit && hit.expiresAt > now) return hit.value;
      const value = fetchArticle(slug);
      articles.delete(slug);
      articles.set(slug, { expiresAt: now + ARTICLE_TTL_MS, value });
      if (articles.size > MAX_CACHED_ARTICLES) articles.delete(articles.keys().next().value as string);
      void value.then((found) => {
        if (found === undefined && articles.get(slug)?.value === value) articles.delete(slug);
      });
      return value;
    },

    /** Published articles for the sitemap; the last good list when content does not answer, else a rejection. */
    sitemapArticles(): Promise<SitemapArticlesResponse['articles']> {
      const now = Date.now();
      if (sitemap && sitemap.expiresAt > now) return sitemap.value;
      const value = getJson('/internal/sitemap/articles').then(({ status, body }) => {
        if (status !== 200) throw new Error(`content answered ${status}`);
        lastSitemap = SitemapArticlesResponse.parse(body).articles;
        return lastSitemap;
      });
      const current: Cached<SitemapArticlesResponse['articles']> = { expiresAt: now + SITEMAP_TTL_MS, value };
      sitemap = current;
      return value.catch((err: unknown) => {
        if (sitemap === current) sitemap = undefined;
        options.logger.warn({ err }, 'sitemap articles unavailable');
        if (lastSitemap) return lastSitemap;
        throw err;
      });
    },
  };
}

export type SeoSource = ReturnType<typeof createSeoSource>;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/** A site path made absolute; absolute http(s) URLs stay as they are. */
function absolute(origin: string, url: string): string {
  return url.startsWith('/') ? `${origin}${url}` : url;
}

/**
 * index.html with the article's title, description, keywords, Open Graph tags and canonical link,
 * so crawlers and link previews see them without running the app. The page's own title and
 * description are replaced; the other tags are added at the end of the head.
 */
export function withArticleHead(html: string, article: ArticleSeo, origin: string): string {
  const pageUrl = `${origin}/articles/${article.slug}`;
  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  const tags = [
    article.keywords ? meta('name', 'keywords', article.keywords) : '',
    meta('property', 'og:type', 'article'),
    meta('property', 'og:title', article.og_title),
    meta('property', 'og:description', article.og_description),
    meta('property', 'og:url', pageUrl),
    article.og_image ? meta('property', 'og:image', absolute(origin, article.og_image)) : '',
    meta('property', 'og:locale', 'ru_RU'),
    meta('property', 'article:published_time', article.published_at),
    meta('property', 'article:modified_time', article.updated_at),
    meta('name', 'twitter:card', article.og_image ? 'summary_large_image' : 'summary'),
    `<link rel="canonical" href="${escapeHtml(absolute(origin, article.canonical_url ?? pageUrl))}">`,
  ].join('');
  const title = `<title>${escapeHtml(article.title)}</title>`;
  const description = meta('name', 'description', article.description);
  let out = /<title>[\s\S]*?<\/title>/i.test(html)
    ? html.replace(/<title>[\s\S]*?<\/title>/i, () => title)
    : html.replace(/<\/head>/i, () => `${title}</head>`);
  out = /<meta\s+name="description"[^>]*>/i.test(out)
    ? out.replace(/<meta\s+name="description"[^>]*>/i, () => description)
    : out.replace(/<\/head>/i, () => `${description}</head>`);
  return out.replace(/<\/head>/i, () => `${tags}</head>`);
}

/** A page the crawlers must not index (the article does not exist). */
export function withNoIndex(html: string): string {
  return html.replace(/<\/head>/i, () => '<meta name="robots" content="noindex"></head>');
}

/** robots.txt: everything but the admin area, the personal account, the API, account-link, password and e-mail confirmation links. */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Disallow: /admin',
    'Disallow: /dashboard',
    'Disallow: /api/',
    'Disallow: /link/',
    'Disallow: /reset-password/',
    'Disallow: /confirm-email',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

/** sitemap.xml of the public pages and the published articles. */
export function sitemapXml(origin: string, articles: SitemapArticlesResponse['articles']): string {
  const url = (loc: string, lastmod?: string) =>
    `<url><loc>${escapeHtml(origin + loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...PUBLIC_PAGES.map((page) => url(page)),
    ...articles.map((article) => url(`/articles/${article.slug}`, article.updated_at)),
    '</urlset>',
    '',
  ].join('\n');
}
