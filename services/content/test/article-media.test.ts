import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { signAccessToken } from '@gpt/kit';
import { type ContentClient, type ContentService, contentClient, startContent } from './support';

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent();
  api = contentClient(content);
});
afterAll(() => content.stop());

/** The smallest PNG there is: one transparent pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

async function upload(file: Buffer, name: string, token: string | null = api.adminToken) {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(file)], { type: 'image/png' }), name);
  const res = await fetch(`${content.url}/api/admin/article_media`, {
    method: 'POST',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { url?: string; error?: string } };
}

describe('POST /api/admin/article_media', () => {
  test('only an admin uploads: 401 without a token, 403 with a user token', async () => {
    const userToken = signAccessToken({ sub: '77', role: 'user', ver: 0 }, content.deps.config.JWT_SECRET);
    expect((await upload(PNG, 'a.png', null)).status).toBe(401);
    expect((await upload(PNG, 'a.png', userToken)).status).toBe(403);
  });

  test('a PNG and a GIF are stored and served to anyone, cached for a year as immutable', async () => {
    for (const [file, type] of [
      [PNG, 'image/png'],
      [GIF, 'image/gif'],
    ] as const) {
      const res = await upload(file, 'picture.bin');
      expect(res.status).toBe(201);
      expect(res.body.url).toMatch(/^\/api\/article_media\/[a-f0-9]{32}$/);
      const served = await fetch(`${content.url}${res.body.url}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);
    }
  });

  test('the type is judged by the content: a text file named .png is refused with 415 in Russian', async () => {
    const res = await upload(Buffer.from('<svg onload="alert(1)"></svg>'), 'evil.png');
    expect(res.status).toBe(415);
    expect(res.body.error).toBe('Изображение должно быть в формате PNG, JPEG, WebP или GIF');
  });

  test('more than 5 MB is refused with 413 «Файл слишком большой (не больше 5 МБ)»', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const res = await upload(big, 'big.png');
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('Файл слишком большой (не больше 5 МБ)');
  });

  test('no file: 400 «Выберите изображение»; JSON instead of a form: 415', async () => {
    const form = new FormData();
    form.append('alt', 'подпись');
    const empty = await fetch(`${content.url}/api/admin/article_media`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${api.adminToken}` },
      body: form,
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: 'Выберите изображение' });
    const json = await api.admin('POST', '/api/admin/article_media', { image: 'x' });
    expect(json.status).toBe(415);
  });

  test('an unknown or malformed id is 404 «Изображение не найдено»', async () => {
    for (const id of ['0'.repeat(32), 'not-an-id']) {
      const res = await api.get(`/api/article_media/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'Изображение не найдено' });
    }
  });
});

describe('images in an article body', () => {
  test('an image from our article media stays; any other image is removed', async () => {
    const { body } = await upload(PNG, 'a.png');
    const article = await api.createArticle({
      content:
        `<p>Текст</p><img src="${body.url}" alt="Схема">` +
        '<img src="https://evil.example/pixel.png" alt="чужая">' +
        '<img src="/api/media/0123456789abcdef0123456789abcdef" alt="из чата">' +
        `<img src="${body.url}/../../admin" alt="обход">`,
    });
    expect(article.content).toBe(`<p>Текст</p><img src="${body.url}" alt="Схема" />`);
    const page = await api.get<{ article: { content: string } }>(`/api/articles/${article.slug}`);
    expect(page.body.article.content).toBe(article.content);
  });
});
