import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import type { GatewayConfig } from './config';
import { robotsTxt, type SeoSource, sitemapXml, withArticleHead, withNoIndex } from './seo';

const HASHED_ASSET = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';
/** Files at the web root that are not fingerprinted (favicon, robots.txt): cache briefly, revalidate. */
const ROOT_FILE = 'public, max-age=3600';
/** Only these swagger-ui-dist files are served; the rest of the package is none of the browser's business. */
const SWAGGER_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'];

/** What the web app reads at start: `window.__APP_CONFIG__.analyticsId` and `.botUrl`. */
export interface RuntimeConfig {
  analyticsId: string | null;
  botUrl: string | null;
}

/** The one inline script of the site, and its CSP hash (computed once: the content never changes). */
export function runtimeConfigScript(config: Pick<GatewayConfig, 'ANALYTICS_ID' | 'TELEGRAM_BOT_USERNAME'>) {
  const botUrl = config.TELEGRAM_BOT_USERNAME ? `https://t.me/${config.TELEGRAM_BOT_USERNAME}` : null;
  const runtime: RuntimeConfig = { analyticsId: config.ANALYTICS_ID ?? null, botUrl };
  // Escape what could close the script element or break a JS string literal.
  const json = JSON.stringify(runtime)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  const content = `window.__APP_CONFIG__=${json}`;
  const hash = `sha256-${createHash('sha256').update(content).digest('base64')}`;
  return { tag: `<script>${content}</script>`, hash };
}

/**
 * The non-proxied part of the site, on express: the built web app (hashed assets cached for good,
 * index.html never, SPA fallback), article pages with their SEO head, robots.txt and the sitemap,
 * the OpenAPI document and its reference page. Proxied API calls never come here.
 */
export function createWebApp(options: {
  webDir: string;
  runtimeScriptTag: string;
  /** Builds the OpenAPI document, on the first request for it. */
  openapi: () => object;
  seo: SeoSource;
  /** The site's public origin for canonical links, robots.txt and the sitemap (never the request's Host). */
  siteUrl: string;
}): Express {
  const webDir = path.resolve(options.webDir);
  const indexFile = path.join(webDir, 'index.html');
  let openapiJson: string | undefined;
  const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

  let cachedIndex: { mtimeMs: number; html: string } | undefined;
  /** index.html with the runtime config injected; re-read when the file changes (a rebuild). */
  const renderIndex = async (): Promise<string | undefined> => {
    const info = await stat(indexFile).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    if (cachedIndex?.mtimeMs !== info.mtimeMs) {
      const html = await readFile(indexFile, 'utf8');
      cachedIndex = { mtimeMs: info.mtimeMs, html: injectIntoHead(html, options.runtimeScriptTag) };
    }
    return cachedIndex.html;
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', 'strong');

  app.get('/api/openapi.json', (_req, res) => {
    res
      .set('Cache-Control', NO_CACHE)
      .type('application/json')
      .send((openapiJson ??= JSON.stringify(options.openapi())));
  });
  app.get(['/api/docs', '/api/docs/'], (_req, res) => {
    res.set('Cache-Control', NO_CACHE).type('html').send(DOCS_PAGE);
  });
  app.get('/api/docs/init.js', (_req, res) => {
    res.set('Cache-Control', NO_CACHE).type('js').send(DOCS_INIT);
  });
  for (const file of SWAGGER_FILES) {
    app.get(`/api/docs/${file}`, (_req, res) => {
      res.sendFile(path.join(swaggerDir, file), { maxAge: '1d' });
    });
  }

  // Vite's fingerprinted output: a changed file gets a new name, so it can be cached forever.
  app.use(
    '/assets',
    express.static(path.join(webDir, 'assets'), {
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader('Cache-Control', HASHED_ASSET),
    }),
  );

  const serveIndex = async (_req: Request, res: Response) => {
    const html = await renderIndex();
    res.set('Cache-Control', NO_CACHE);
    if (html === undefined) {
      res.status(503).type('html').send(NOT_BUILT_PAGE);
      return;
    }
    res.type('html').send(html);
  };
  app.get(['/', '/index.html'], serveIndex);
  app.use(
    express.static(webDir, {
      index: false,
      redirect: false,
      setHeaders: (res) => res.setHeader('Cache-Control', ROOT_FILE),
    }),
  );

  // Unless the web build ships its own files of these names.
  app.get('/robots.txt', (_req, res) => {
    res.set('Cache-Control', ROOT_FILE).type('text/plain').send(robotsTxt(options.siteUrl));
  });
  app.get('/sitemap.xml', async (_req, res) => {
    const articles = await options.seo.sitemapArticles().catch(() => undefined);
    if (!articles) {
      res.status(503).set('Retry-After', '60').type('text/plain').send('Карта сайта временно недоступна');
      return;
    }
    res.set('Cache-Control', ROOT_FILE).type('application/xml').send(sitemapXml(options.siteUrl, articles));
  });
  // Crawlers and link previews read an article's title and tags without running the app.
  app.get('/articles/:slug', async (req: Request<{ slug: string }>, res) => {
    const [html, article] = await Promise.all([renderIndex(), options.seo.article(req.params.slug)]);
    res.set('Cache-Control', NO_CACHE);
    if (html === undefined) {
      res.status(503).type('html').send(NOT_BUILT_PAGE);
      return;
    }
    if (article === null) res.status(404).type('html').send(withNoIndex(html));
    else res.type('html').send(article ? withArticleHead(html, article, options.siteUrl) : html);
  });
  // Any other page is the single-page app's business (its router shows the not-found page).
  app.get(/.*/, serveIndex);
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: 'Не найдено', code: 'not_found' });
  });
  app.use((err: { status?: number; statusCode?: number }, _req: Request, res: Response, _next: () => void) => {
    const status = err.status ?? err.statusCode ?? 500;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // A path the file server refuses — a traversal (403), a malformed one (400) — is simply not found here.
    if (status === 404 || status === 403 || status === 400)
      res.status(404).json({ error: 'Не найдено', code: 'not_found' });
    else res.status(500).json({ error: 'Внутренняя ошибка сервера', code: 'internal_error' });
  });
  return app;
}

function injectIntoHead(html: string, tag: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return tag + html;
  const at = head.index + head[0].length;
  return html.slice(0, at) + tag + html.slice(at);
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Сайт не собран</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>Веб-приложение ещё не собрано</h1>
<p>Шлюз работает, но в папке веб-приложения нет <code>index.html</code>.</p>
<p>Соберите его командой <code>npm run build</code> (или запустите всё сразу: <code>npm start</code>) и обновите страницу.</p>
<p lang="en">The web app is not built yet: run <code>npm run build</code>, then reload.</p>
</body></html>
`;

const DOCS_PAGE = `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>API — справочник</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" sizes="32x32">
</head><body><div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body></html>
`;

// The site's session token goes with every call of the page, the document's included (admins only in production).
const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  requestInterceptor: (request) => {
    const token = localStorage.getItem('token');
    if (token && !request.headers.Authorization) request.headers.Authorization = 'Bearer ' + token;
    return request;
  },
});
`;
