import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { pino } from 'pino';
import { startTestGateway, type TestGateway } from './support/harness';

let gw: TestGateway;
const lines: Array<Record<string, unknown>> = [];
let lineArrived: (() => void) | undefined;

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    lineArrived?.();
  });
  // The kit's logger is pino with these options; the access log must read like its other lines.
  const logger = pino({ name: 'gateway', level: 'info', base: { service: 'gateway' } }, stream);
  gw = await startTestGateway({}, { logger });
});

afterAll(async () => {
  await gw.close();
});

async function logLineFor(requestId: string): Promise<Record<string, unknown>> {
  for (;;) {
    const line = lines.find((entry) => entry.reqId === requestId);
    if (line) return line;
    await new Promise<void>((resolve) => (lineArrived = resolve));
  }
}

describe('access log', () => {
  test('every request leaves one JSON line in the logger’s format with id, status, time and upstream', async () => {
    await fetch(`${gw.url}/api/articles?page=2`, { headers: { 'x-request-id': 'log-1' } });

    const line = await logLineFor('log-1');

    expect(line).toMatchObject({
      level: 30,
      service: 'gateway',
      name: 'gateway',
      log: 'access',
      reqId: 'log-1',
      method: 'GET',
      url: '/api/articles?page=2',
      status: 200,
      upstream: 'content',
      msg: 'request',
    });
    expect(typeof line.time).toBe('number');
    expect(typeof line.ms).toBe('number');
  });

  test('refusals are logged too, and odd characters in the URL keep the line valid JSON', async () => {
    await fetch(`${gw.url}/api/admin/users?q=%22quoted%22%5C`, { headers: { 'x-request-id': 'log-2' } });

    expect(await logLineFor('log-2')).toMatchObject({ status: 401, url: '/api/admin/users?q=%22quoted%22%5C' });
  });
});
