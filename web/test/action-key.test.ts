import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { MutationObserver, QueryClient } from '@tanstack/react-query';

import { actionKeyHeaders, keyedActionRetry } from '../src/lib/action-key';
import { apiSend } from '../src/lib/api-client';

/** A real local server whose first answer to each key is 503, as during a database restart; it records the keys. */
let server: Server;
let base = '';
const keys: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const key = String(req.headers['idempotency-key'] ?? '');
    const first = !keys.includes(key);
    keys.push(key);
    res.writeHead(first ? 503 : 200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify(first ? { error: 'Сервис временно недоступен', code: 'service_unavailable' } : { ok: true }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a keyed admin action', () => {
  test('when the first answer is 503, then it is tried again by itself with the same Idempotency-Key', async () => {
    const observer = new MutationObserver(new QueryClient(), {
      mutationFn: (key: string) => apiSend(`${base}/action`, { method: 'POST', headers: actionKeyHeaders(key) }),
      ...keyedActionRetry,
      retryDelay: 10,
    });

    await expect(observer.mutate('key-of-the-opened-form')).resolves.toEqual({ ok: true });

    expect(keys).toEqual(['key-of-the-opened-form', 'key-of-the-opened-form']);
  });
});
