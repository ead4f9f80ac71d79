import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import {
  badRequest,
  conflict,
  createHttpApp,
  createLogger,
  errorBody,
  forbidden,
  notFound,
  tooManyRequests,
  unauthorized,
  validate,
} from '../src';

const Body = z.object({ email: z.string().email('Некорректный email') });

let server: Server;
let base: string;
let ready = true;

beforeAll(async () => {
  const app = createHttpApp({
    name: 'kit-test',
    logger: createLogger({ name: 'kit-test', level: 'silent' }),
    readiness: {
      db: async () => {
        if (!ready) throw new Error('database down');
      },
    },
    routes: (app) => {
      app.post('/echo', (req, res) => {
        res.json(validate(Body, req.body));
      });
      const errors = { badRequest, unauthorized, forbidden, notFound, conflict };
      app.get('/errors/:kind', (req) => {
        if (req.params.kind === 'rate') throw tooManyRequests('Слишком много запросов', 7);
        const make = errors[req.params.kind as keyof typeof errors];
        throw make('Сообщение для человека');
      });
      app.get('/boom', () => {
        throw new Error('secret internal detail');
      });
    },
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, body: string, type = 'application/json') =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': type }, body });

describe('createHttpApp', () => {
  test('when the JSON is malformed, then 400 invalid_json', async () => {
    const res = await post('/echo', '{"email":');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Некорректный JSON в теле запроса', code: 'invalid_json' });
  });

  test('when the body is over 1 MB, then 413', async () => {
    const res = await post('/echo', JSON.stringify({ email: 'x'.repeat(1_100_000) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  test('when the schema fails, then 400 with the schema message and details', async () => {
    const res = await post('/echo', JSON.stringify({ email: 'nope' }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { details: unknown };
    expect(body).toMatchObject({ error: 'Некорректный email', code: 'validation_error' });
    expect(body.details).toEqual([{ path: 'email', message: 'Некорректный email' }]);
  });

  test('when the input is valid, then the route answers', async () => {
    const res = await post('/echo', JSON.stringify({ email: 'a@b.ru' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ email: 'a@b.ru' });
  });

  test.each([
    ['badRequest', 400, 'bad_request'],
    ['unauthorized', 401, 'unauthorized'],
    ['forbidden', 403, 'forbidden'],
    ['notFound', 404, 'not_found'],
    ['conflict', 409, 'conflict'],
  ])('when the route throws %s, then %i with its code', async (kind, status, code) => {
    const res = await fetch(`${base}/errors/${kind}`);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error: 'Сообщение для человека', code });
  });

  test('when rate limited, then 429 with Retry-After', async () => {
    const res = await fetch(`${base}/errors/rate`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({ error: 'Слишком много запросов', code: 'rate_limited' });
  });

  test('when something unexpected throws, then a masked 500', async () => {
    const res = await fetch(`${base}/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: 'Внутренняя ошибка сервера', code: 'internal_error' });
    expect(text).not.toContain('secret');
  });

  test('when a text holds U+0000 (which PostgreSQL cannot store), then validate refuses it as a 400', () => {
    let thrown: unknown;
    try {
      validate(z.object({ names: z.array(z.string()) }), { names: ['ok', 'a\u0000b'] });
    } catch (err) {
      thrown = err;
    }
    expect(errorBody(thrown)).toMatchObject({ status: 400, body: { code: 'nul_character' } });
  });

  test('when the route is unknown, then a JSON 404', async () => {
    const res = await fetch(`${base}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Не найдено', code: 'not_found' });
  });

  test('the request id is kept when given and made when not', async () => {
    const given = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${base}/healthz`, { headers: { 'x-request-id': '<script>' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('/healthz is alive; /readyz reports each dependency', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ok', checks: { db: 'ok' } });
    ready = false;
    const down = await fetch(`${base}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'unavailable', checks: { db: 'database down' } });
    ready = true;
  });

  test('/metrics exposes process metrics and the request histogram', async () => {
    await fetch(`${base}/healthz`);
    await post('/echo', JSON.stringify({ email: 'a@b.ru' }));
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/echo"[^}]*\} 1/);
  });
});
