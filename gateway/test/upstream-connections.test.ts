import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { describe, expect, test } from '@jest/globals';
import {
  closedAfterEach,
  closeServer,
  listen,
  type Seen,
  startTestGateway,
  type TestGateway,
  UNAVAILABLE,
} from './support/harness';

const running = closedAfterEach();

/** A stand-in content service answering with `handle`; the gateway in front of it. */
async function gatewayBefore(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestGateway> {
  const server = createServer(handle);
  const url = await listen(server);
  running.cleanups.push(() => {
    server.closeAllConnections();
    return closeServer(server);
  });
  return startTestGateway({ CONTENT_URL: url });
}

/** Resolves when `event` happens, or rejects after `ms`. */
function within<T>(ms: number, event: (resolve: (value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms);
    event((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

describe('connections to a service', () => {
  test('requests one after another share one kept connection, whatever the client says of its own', async () => {
    running.gw = await startTestGateway();

    const seen: Seen[] = [];
    for (let i = 0; i < 5; i++) {
      const body = await rawGet(`${running.gw.url}/api/articles?page=${i}`, {
        connection: 'close, x-client-only',
        'keep-alive': 'timeout=1',
        te: 'trailers',
        'x-client-only': 'yes',
      });
      seen.push(JSON.parse(body) as Seen);
    }

    expect(new Set(seen.map((one) => one.remotePort)).size).toBe(1);
    for (const one of seen) {
      expect(one.headers.connection).not.toBe('close');
      expect(one.headers['keep-alive']).toBeUndefined();
      expect(one.headers.te).toBeUndefined();
      expect(one.headers['x-client-only']).toBeUndefined();
    }
  });

  test('an answer streams to the client as the service writes it, with every header it sets', async () => {
    let finish: () => void = () => {};
    running.gw = await gatewayBefore((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] });
      res.write('id;name\n');
      finish = () => res.end('1;Первая\n');
    });

    const res = await fetch(`${running.gw.url}/api/articles`);
    const reader = res.body!.getReader();
    const first = await reader.read();

    expect(new TextDecoder().decode(first.value)).toBe('id;name\n');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    finish();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value, { stream: true });
    }
    expect(rest).toBe('1;Первая\n');
  });

  test('when the client leaves in the middle of an answer, then the service’s request is given up too', async () => {
    let upstreamClosed: () => void = () => {};
    const closed = within<void>(2000, (resolve) => (upstreamClosed = resolve));
    running.gw = await gatewayBefore((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('first line\n');
      res.once('close', () => upstreamClosed());
    });
    const abort = new AbortController();

    const res = await fetch(`${running.gw.url}/api/articles`, { signal: abort.signal });
    await res.body!.getReader().read();
    abort.abort();

    await expect(closed).resolves.toBeUndefined();
  });

  test('when the service drops the connection before answering, then 502 JSON with the request id', async () => {
    running.gw = await gatewayBefore((req) => req.socket.destroy());

    const res = await fetch(`${running.gw.url}/api/articles`, { headers: { 'x-request-id': 'dropped-1' } });

    expect(res.status).toBe(502);
    expect(await res.json()).toEqual(UNAVAILABLE);
    expect(res.headers.get('x-request-id')).toBe('dropped-1');
  });

  test('when the service drops the connection in the middle of its answer, then the client’s is cut too', async () => {
    running.gw = await gatewayBefore((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('first line\n');
      setTimeout(() => res.socket?.destroy(), 50);
    });

    const res = await fetch(`${running.gw.url}/api/articles`);

    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });
});

/** A GET on a connection of its own, with headers fetch would refuse to send; the body. */
function rawGet(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}
