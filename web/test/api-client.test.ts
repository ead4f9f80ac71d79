import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { readRequestBody } from '@gpt/kit/testing';
import { z } from 'zod';

import { AnswerMismatchError, apiCaller, ApiError, apiSend } from '../src/lib/api-client';

/** What /echo answers. */
const Echo = z.object({
  method: z.string(),
  query: z.string(),
  authorization: z.string().nullable(),
  contentType: z.string().nullable(),
  body: z.unknown(),
});

/** A real local server that answers by path and echoes what it received. */
let server: Server;
let base = '';
/** What /api/tariffs answers next. */
let tariffsAnswer: unknown = { success: true, tariffs: [] };
const requested: string[] = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readRequestBody(req);
    const url = new URL(req.url ?? '/', 'http://localhost');
    requested.push(`${req.method} ${url.pathname}`);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (url.pathname === '/echo') {
      json(200, {
        method: req.method,
        query: url.search,
        authorization: req.headers.authorization ?? null,
        contentType: req.headers['content-type'] ?? null,
        body: body ? (JSON.parse(body) as unknown) : null,
      });
    } else if (url.pathname === '/api/tariffs') {
      json(200, tariffsAnswer);
    } else if (url.pathname === '/fail-with-error') {
      json(409, { error: 'Пользователь уже существует', code: 'email_taken' });
    } else if (url.pathname === '/fail-without-error') {
      res.writeHead(500, { 'Content-Type': 'text/html' });
      res.end('<h1>oops</h1>');
    } else {
      res.writeHead(204);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** The browser's localStorage, for the token the helper reads. */
function storeToken(token: string | null) {
  const values = new Map<string, string>(token ? [['token', token]] : []);
  (globalThis as { window?: unknown }).window = {
    localStorage: {
      getItem: (key: string) => values.get(key) ?? null,
      setItem: (key: string, value: string) => values.set(key, value),
      removeItem: (key: string) => values.delete(key),
    },
  };
}

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe('api client', () => {
  test('when a token is stored, then it sends JSON with a bearer header', async () => {
    storeToken('abc.def');
    const echo = Echo.parse(
      await apiSend(`${base}/echo`, { method: 'POST', body: { email: 'a@b.ru' }, query: { page: 2, q: '' } }),
    );
    expect(echo).toEqual({
      method: 'POST',
      query: '?page=2',
      authorization: 'Bearer abc.def',
      contentType: 'application/json',
      body: { email: 'a@b.ru' },
    });
  });

  test('when no token is stored, then no Authorization header is sent', async () => {
    const echo = Echo.parse(await apiSend(`${base}/echo`));
    expect(echo.authorization).toBeNull();
  });

  test("when the call fails with a body error, then it throws that body's error", async () => {
    const failure = await apiSend(`${base}/fail-with-error`).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      message: 'Пользователь уже существует',
      status: 409,
      code: 'email_taken',
      fromServer: true,
    });
  });

  test("when the call fails without an error field, then it throws 'Request failed'", async () => {
    const failure = await apiSend(`${base}/fail-without-error`).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ message: 'Request failed', status: 500, fromServer: false });
  });

  test("when the server cannot be reached, then it throws 'Request failed'", async () => {
    const failure = await apiSend('http://127.0.0.1:1/nothing').catch((err: unknown) => err);
    expect(failure).toMatchObject({ message: 'Request failed', status: 0 });
  });

  test('when the answer is 204, then it resolves to undefined', async () => {
    await expect(apiSend(`${base}/empty`, { method: 'DELETE' })).resolves.toBeUndefined();
  });

  test('when a route is called by its id, then its path and method come from the contracts and its answer is checked', async () => {
    const callRoute = apiCaller(base);
    await expect(callRoute('getTariffs')).resolves.toEqual({ success: true, tariffs: [] });
    tariffsAnswer = { tariffs: [] };
    const failure = await callRoute('getTariffs').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AnswerMismatchError);
    expect((failure as Error).message).toMatch(/^GET \/api\/tariffs: .*success: /);
  });

  test('when a body breaks its route’s schema, then it is refused as the server would, without a call', async () => {
    requested.length = 0;
    const failure = await apiCaller(base)('postFeedback', {
      body: { telegram: '@me', subject: '', message: 'Привет' },
    }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ message: 'Укажите тему', status: 400, code: 'validation_error', fromServer: true });
    expect(requested).toEqual([]);
  });
});
