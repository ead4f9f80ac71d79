import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHttpApp, createLogger } from '../src';

const lines: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const logger = createLogger({
    name: 'kit-test',
    format: 'json',
    destination: { write: (line: string) => lines.push(line) },
  });
  const app = createHttpApp({
    name: 'kit-test',
    logger,
    routes: (app) => {
      app.get('/quiet', (_req, res) => {
        res.json({ ok: true });
      });
      app.get('/noted', (req, res) => {
        req.log.warn({ detail: 42 }, 'something to note');
        res.json({ ok: true });
      });
      app.get('/boom', () => {
        throw new Error('broken');
      });
    },
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The lines written once `expected` of them have come (a request's line follows its answer). */
async function linesAfter(request: () => Promise<Response>, expected: number) {
  lines.length = 0;
  await (await request()).text();
  for (let waited = 0; lines.length < expected && waited < 2000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the request log of a service', () => {
  test('a request gets one line with its id, method, URL, status and time', async () => {
    const written = await linesAfter(() => fetch(`${base}/quiet?page=2`, { headers: { 'x-request-id': 'log-1' } }), 1);

    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      level: 30,
      service: 'kit-test',
      msg: 'request completed',
      req: { id: 'log-1', method: 'GET', url: '/quiet?page=2' },
      res: { statusCode: 200 },
    });
    expect(typeof written[0]!.responseTime).toBe('number');
    // Headers stay out of the service's line (the gateway's access log holds the request).
    expect(JSON.stringify(written[0])).not.toContain('headers');
  });

  test('what a route logs about its request names the request', async () => {
    const written = await linesAfter(() => fetch(`${base}/noted`, { headers: { 'x-request-id': 'log-2' } }), 2);

    expect(written[0]).toMatchObject({
      level: 40,
      msg: 'something to note',
      detail: 42,
      req: { id: 'log-2', method: 'GET', url: '/noted' },
    });
  });

  test('a 5xx is logged at error level, the failure with it', async () => {
    const written = await linesAfter(() => fetch(`${base}/boom`, { headers: { 'x-request-id': 'log-3' } }), 2);

    expect(written.find((line) => line.msg === 'request failed')).toMatchObject({ level: 50, req: { id: 'log-3' } });
    expect(written.find((line) => line.msg === 'request completed')).toMatchObject({
      level: 50,
      res: { statusCode: 500 },
    });
  });

  test('probes are not logged', async () => {
    const written = await linesAfter(() => fetch(`${base}/healthz`), 0);
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(written).toEqual([]);
    expect(lines).toEqual([]);
  });
});
