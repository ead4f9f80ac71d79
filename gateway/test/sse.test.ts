import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { adminToken, bearer, startTestGateway, type TestGateway } from './support/harness';

/**
 * The web chat's answers are server-sent events from the bot through the gateway (docs/architecture.md,
 * The assistant): proxied, each event reaches the browser as it is written, and a stream longer than the
 * upstream timeout lives on while the service keeps it alive.
 */
const UPSTREAM_TIMEOUT_MS = 800;
let gw: TestGateway;
let bot: Server;
let botUrl: string;

beforeAll(async () => {
  bot = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.flushHeaders();
    res.write('event: delta\nid: 6\ndata: {"text":"Привет"}\n\n');
    // Quiet but alive for twice the upstream timeout: a comment every 200 ms, then the end.
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 200);
    setTimeout(() => {
      clearInterval(keepAlive);
      res.end('event: done\ndata: {"status":"done"}\n\n');
    }, UPSTREAM_TIMEOUT_MS * 2);
  });
  await new Promise<void>((resolve) => bot.listen(0, '127.0.0.1', resolve));
  botUrl = `http://127.0.0.1:${(bot.address() as AddressInfo).port}`;
  gw = await startTestGateway({ BOT_URL: botUrl, UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS) });
});

afterAll(async () => {
  await gw.close();
  await new Promise((resolve) => bot.close(resolve));
});

test('an answer’s events pass the gateway unbuffered, and a kept-alive stream outlives the upstream timeout', async () => {
  const started = Date.now();
  const response = await fetch(`${gw.url}/api/chat/answers/some-answer/events`, { headers: bearer(adminToken()) });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const first = decoder.decode((await reader.read()).value);
  expect(first).toContain('data: {"text":"Привет"}');
  // The first event came while the service was still answering (it ends after 1.6 s).
  expect(Date.now() - started).toBeLessThan(UPSTREAM_TIMEOUT_MS);

  let rest = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    rest += decoder.decode(chunk.value, { stream: true });
  }
  expect(rest).toContain('event: done');
  expect(Date.now() - started).toBeGreaterThanOrEqual(UPSTREAM_TIMEOUT_MS * 2);
});
