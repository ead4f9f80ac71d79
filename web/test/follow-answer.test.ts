import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { followAnswer } from '../src/features/chat/api/follow-answer';
import type { LiveAnswerEnd } from '../src/features/chat/use-live-answer';

/** A real local server speaking the answer stream's protocol, each connection scripted by the test. */
let server: Server;
let origin: string;
let script: (req: IncomingMessage, res: ServerResponse, connection: number) => void = () => undefined;
const connections: { lastEventId: string | undefined; path: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    connections.push({ lastEventId: req.headers['last-event-id'] as string | undefined, path: req.url ?? '' });
    script(req, res, connections.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const delta = (end: number, text: string) => `event: delta\nid: ${end}\ndata: ${JSON.stringify({ text })}\n\n`;

/** Follows the answer until it ends; resolves with the text shown and how it ended. */
function follow(offset: number) {
  let text = '';
  return new Promise<{ text: string; end: LiveAnswerEnd }>((resolve) => {
    followAnswer(
      'answer-1',
      offset,
      {
        onText: (chunk) => (text += chunk),
        onEnd: (end) => resolve({ text, end }),
        onRefusal: (refusal) => resolve({ text, end: { refusal } }),
        onGone: () => resolve({ text, end: { gone: true } }),
      },
      origin,
    );
  });
}

test('a dropped stream is opened again from the offset reached; a chunk that overlaps what is shown is cut, none is shown twice', async () => {
  connections.length = 0;
  script = (_req, res, connection) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    if (connection === 1) {
      // The page had 6 characters ("Hello ") when it opened; the server sends from there, then the connection drops.
      res.write(delta(11, 'world') + delta(13, ', '), () => setTimeout(() => res.destroy(), 50));
      return;
    }
    // The server answers the reconnect from a little earlier than asked: the overlap is cut.
    res.write(delta(15, ', my'));
    res.write(delta(22, ' friend'));
    res.end(
      `event: done\ndata: ${JSON.stringify({ status: 'done', cost: 3, model: 'gpt-4o-mini', message: null })}\n\n`,
    );
  };
  const { text, end } = await follow(6);
  expect('Hello ' + text).toBe('Hello world, my friend');
  expect(end).toMatchObject({ status: 'done', cost: 3, model: 'gpt-4o-mini' });
  expect(connections.map((c) => c.lastEventId)).toEqual(['6', '13']);
  expect(connections[0]!.path).toBe('/api/chat/answers/answer-1/events');
});

test('a refusal while answering, and a stream the server will not open, end with the server’s words', async () => {
  script = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end(
      delta(4, 'Нача') +
        `event: error\ndata: ${JSON.stringify({ error: 'Недостаточно кредитов.', code: 'insufficient_credits' })}\n\n`,
    );
  };
  await expect(follow(0)).resolves.toEqual({ text: 'Нача', end: { refusal: 'Недостаточно кредитов.' } });

  script = (_req, res) => {
    res.writeHead(401, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: 'Требуется авторизация', code: 'unauthorized' }));
  };
  await expect(follow(0)).resolves.toEqual({ text: '', end: { refusal: 'Требуется авторизация' } });
});

test('an answer that is gone (404 answer_not_found, or the event saying so) ends with nothing to tell', async () => {
  // A question refused for want of credits: its answer was there for a moment and the page began to follow it,
  // while the question's own 402 says why (the page's «Пополнить» must stay).
  const gone = { error: 'Ответ не найден.', code: 'answer_not_found' };
  script = (_req, res) => {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(gone));
  };
  await expect(follow(0)).resolves.toEqual({ text: '', end: { gone: true } });

  script = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end(`event: error\ndata: ${JSON.stringify(gone)}\n\n`);
  };
  await expect(follow(0)).resolves.toEqual({ text: '', end: { gone: true } });
});
