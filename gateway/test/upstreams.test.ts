import { describe, expect, test } from '@jest/globals';
import { closedAfterEach, closedPortUrl, startSilentUpstream, startTestGateway, UNAVAILABLE } from './support/harness';

/** A down service is answered within 2 s; the bound is generous so a busy machine does not flake. */
const WITHIN_MS = 2500;

const running = closedAfterEach();

describe('a service that is down', () => {
  test('when nothing listens on its port, then 502/503 JSON quickly, never a hang', async () => {
    running.gw = await startTestGateway({ CONTENT_URL: await closedPortUrl() });

    const started = Date.now();
    const res = await fetch(`${running.gw.url}/api/articles`);

    expect([502, 503]).toContain(res.status);
    expect(await res.json()).toEqual(UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(WITHIN_MS);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  test('when it accepts the connection but never answers, then 502/503 JSON once the timeout passes', async () => {
    const silent = await startSilentUpstream();
    running.cleanups.push(silent.close);
    running.gw = await startTestGateway({ BILLING_URL: silent.url, UPSTREAM_TIMEOUT_MS: '1000' });

    const started = Date.now();
    const res = await fetch(`${running.gw.url}/api/tariffs`);

    expect([502, 503]).toContain(res.status);
    expect(await res.json()).toEqual(UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(WITHIN_MS);
  });

  test('when one service is down, then the others still answer', async () => {
    running.gw = await startTestGateway({ METRICS_URL: await closedPortUrl() });

    expect((await fetch(`${running.gw.url}/api/articles`)).status).toBe(200);
    expect((await fetch(`${running.gw.url}/api/tariffs`)).status).toBe(200);
  });
});

describe('GET /api/healthz', () => {
  test('when every service is ready, then 200 with each one ok', async () => {
    running.gw = await startTestGateway();

    const res = await fetch(`${running.gw.url}/api/healthz`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      services: {
        auth: 'ok',
        content: 'ok',
        billing: 'ok',
        'chat-history': 'ok',
        metrics: 'ok',
        bot: 'ok',
        redis: 'ok',
      },
    });
  });

  test('when a service is down or silent, then 503 naming it, within a couple of seconds', async () => {
    const silent = await startSilentUpstream();
    running.cleanups.push(silent.close);
    running.gw = await startTestGateway({ AUTH_URL: await closedPortUrl(), METRICS_URL: silent.url });

    const started = Date.now();
    const res = await fetch(`${running.gw.url}/api/healthz`);

    expect(res.status).toBe(503);
    const body = (await res.json()) as { status: string; services: Record<string, string> };
    expect(body.status).toBe('unavailable');
    expect(body.services.auth).not.toBe('ok');
    expect(body.services.metrics).not.toBe('ok');
    expect(body.services.content).toBe('ok');
    expect(Date.now() - started).toBeLessThan(WITHIN_MS);
  });

  test('GET /healthz answers for the gateway alone', async () => {
    running.gw = await startTestGateway({ AUTH_URL: await closedPortUrl() });

    const res = await fetch(`${running.gw.url}/healthz`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  test('GET /readyz is the gateway’s own readiness: ready while a service is down', async () => {
    running.gw = await startTestGateway({ AUTH_URL: await closedPortUrl() });

    const res = await fetch(`${running.gw.url}/readyz`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
