import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { adminToken, bearer, OPENAPI_DOC, startTestGateway, type TestGateway, userToken } from './support/harness';

const INDEX_HTML =
  '<!doctype html><html lang="ru"><head><meta charset="UTF-8"><title>Сайт</title>' +
  '<script type="module" crossorigin src="/assets/index-AbC123.js"></script></head>' +
  '<body><div id="root"></div></body></html>';
const ASSET = 'console.log("app");';

let webDir: string;
let gw: TestGateway;

beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'gw-web-'));
  await mkdir(path.join(webDir, 'assets'));
  await writeFile(path.join(webDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(webDir, 'assets', 'index-AbC123.js'), ASSET);
  await writeFile(path.join(webDir, 'robots.txt'), 'User-agent: *\n');
  gw = await startTestGateway({ WEB_DIR: webDir, ANALYTICS_ID: '98765432', TELEGRAM_BOT_USERNAME: 'gpt_test_bot' });
});

afterAll(async () => {
  await gw.close();
  await rm(webDir, { recursive: true, force: true });
});

describe('the web app', () => {
  test('GET /dashboard falls back to index.html, uncached, with the runtime config injected in <head>', async () => {
    const res = await fetch(`${gw.url}/dashboard`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain(
      '<head><script>window.__APP_CONFIG__={"analyticsId":"98765432","botUrl":"https://t.me/gpt_test_bot"}</script>',
    );
  });

  test('deep links and / all serve the same page', async () => {
    for (const page of ['/', '/articles/gpt-guide', '/admin/users', '/link/abc123', '/no/such/page']) {
      const res = await fetch(gw.url + page);
      expect({ page, status: res.status }).toEqual({ page, status: 200 });
      expect(await res.text()).toContain('window.__APP_CONFIG__');
    }
  });

  test('hashed assets are cached for a year and immutable', async () => {
    const res = await fetch(`${gw.url}/assets/index-AbC123.js`);

    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(ASSET);
  });

  test('a missing asset is a 404, not the SPA page', async () => {
    const res = await fetch(`${gw.url}/assets/index-gone.js`);

    expect(res.status).toBe(404);
  });

  test('a traversal through an encoded slash under /assets is a 404, never a 500', async () => {
    for (const probe of ['/assets/..%2findex.html', '/assets/..%2f..%2fetc%2fpasswd', '/assets/%2e%2e%2frobots.txt']) {
      const res = await fetch(`${gw.url}${probe}`);
      expect({ probe, status: res.status }).toEqual({ probe, status: 404 });
    }
  });

  test('other files at the root are served as files', async () => {
    const res = await fetch(`${gw.url}/robots.txt`);

    expect(res.status).toBe(200);
    expect(await res.text()).toBe('User-agent: *\n');
  });

  test('pages carry the security headers: CSP admitting the analytics tag and our one inline script; no HSTS over plain HTTP', async () => {
    const res = await fetch(`${gw.url}/dashboard`);
    const html = await res.text();

    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src [^;]*https:\/\/mc\.yandex\.ru/);
    expect(csp).toMatch(/script-src [^;]*https:\/\/yastatic\.net/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/mc\.yandex\.ru/);
    expect(csp).toMatch(/img-src [^;]*https:\/\/mc\.yandex\.ru/);
    // The Telegram Login Widget on /login: Telegram's script and its button's frame.
    expect(csp).toMatch(/script-src [^;]*https:\/\/telegram\.org/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/oauth\.telegram\.org/);
    const inline = /<script>(.*?)<\/script>/.exec(html)![1]!;
    const hash = createHash('sha256').update(inline).digest('base64');
    expect(csp).toContain(`'sha256-${hash}'`);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('API reference', () => {
  test('GET /api/openapi.json serves the document it was given', async () => {
    const res = await fetch(`${gw.url}/api/openapi.json`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual(OPENAPI_DOC);
  });

  test('in production the document is for admins only, and the docs page sends the session token for it', async () => {
    const production = await startTestGateway({ NODE_ENV: 'production', SITE_URL: 'https://gpt.example.ru' });
    try {
      const doc = (headers: Record<string, string> = {}) => fetch(`${production.url}/api/openapi.json`, { headers });
      expect((await doc()).status).toBe(401);
      expect((await doc(bearer(userToken()))).status).toBe(403);
      const admin = await doc(bearer(adminToken()));
      expect(admin.status).toBe(200);
      expect(await admin.json()).toEqual(OPENAPI_DOC);
      const init = await (await fetch(`${production.url}/api/docs/init.js`)).text();
      expect(init).toContain("localStorage.getItem('token')");
    } finally {
      await production.close();
    }
  });

  test('GET /api/docs serves a reference page whose scripts come from the gateway itself', async () => {
    const res = await fetch(`${gw.url}/api/docs`);

    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('swagger-ui');
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources.every((source) => source.startsWith('/api/docs/'))).toBe(true);
    for (const source of sources) {
      const asset = await fetch(gw.url + source);
      await asset.arrayBuffer();
      expect({ source, status: asset.status }).toEqual({ source, status: 200 });
    }
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
  });
});

describe('when the web app is not built', () => {
  test('pages answer 503 saying to run npm run build, while the API works', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'gw-empty-'));
    const bare = await startTestGateway({ WEB_DIR: empty });
    try {
      const res = await fetch(`${bare.url}/dashboard`);

      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build');
      expect((await fetch(`${bare.url}/api/articles`)).status).toBe(200);
    } finally {
      await bare.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
