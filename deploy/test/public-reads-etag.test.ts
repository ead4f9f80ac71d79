import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { buildOpenApiDocument } from '@gpt/contracts/openapi';
import { createLogger } from '@gpt/kit';
import { TEST_SECRETS, uniqueName } from '@gpt/kit/testing';
import { type RunningGateway, startGateway } from '@gpt/gateway';
import { callApi, setSetting, startTestStack, type TestStack } from '../src/testing';

/**
 * The public reads every page and every bot message make, through the gateway both ways it reaches
 * a service: in process (the embedded default and this stack's own gateway) and over HTTP (a gateway
 * of its own in front of the same services, as in multi-process and Docker runs).
 */
let stack: TestStack;
let proxy: RunningGateway;
let adminToken: string;

beforeAll(async () => {
  stack = await startTestStack();
  // Each service's <NAME>_URL, as the launcher gives a gateway process of its own.
  const upstreams = stack.services.map((service) => [
    `${service.name.toUpperCase().replace('-', '_')}_URL`,
    service.url,
  ]);
  proxy = await startGateway({
    env: {
      ...TEST_SECRETS,
      ...Object.fromEntries(upstreams),
      LOG_LEVEL: 'silent',
      REDIS_KEY_PREFIX: `${uniqueName('proxy')}:`,
    },
    port: 0,
    host: '127.0.0.1',
    logger: createLogger({ name: 'proxy-gateway', level: 'silent' }),
    openapi: buildOpenApiDocument,
  });
  const login = await callApi<{ token: string }>(stack.url, 'POST', '/api/auth/login', { body: stack.admin });
  adminToken = login.body.token;
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await stack?.close();
});

const bot = { 'X-Bot-Key': TEST_SECRETS.BOT_API_KEY };
const gateways = () => [
  ['in process', stack.url],
  ['over HTTP', proxy.url],
];

/** [path, headers, a change through the gateway that alters its answer] */
const READS: Array<[string, Record<string, string>, () => Promise<void>]> = [
  [
    '/api/tariffs',
    {},
    async () => {
      const { body } = await callApi<{ data: Array<Record<string, unknown>> }>(stack.url, 'GET', '/api/admin/tariffs', {
        token: adminToken,
      });
      const { id, created_at: _c, updated_at: _u, ...fields } = body.data.find((t) => t.name === 'Premium')!;
      const edited = { ...fields, description: `Премиум (${uniqueName('edit')})` };
      await expectOk(
        callApi(stack.url, 'PUT', `/api/admin/tariffs/${String(id)}`, { token: adminToken, body: edited }),
      );
    },
  ],
  [
    '/api/bot/models',
    bot,
    async () => {
      const { body } = await callApi<{ models: Array<Record<string, unknown>> }>(
        stack.url,
        'GET',
        '/api/admin/models',
        {
          token: adminToken,
        },
      );
      const { id, created_at: _c, updated_at: _u, ...fields } = body.models.find((m) => m.model === 'gpt-4o-mini')!;
      const edited = { ...fields, description: `Быстрая (${uniqueName('edit')})` };
      await expectOk(callApi(stack.url, 'PUT', `/api/admin/models/${String(id)}`, { token: adminToken, body: edited }));
    },
  ],
  [
    '/api/bot/settings',
    bot,
    () => setSetting(stack, 'context_token_budget', String(4000 + Math.floor(Math.random() * 1000))),
  ],
  [
    '/api/welcome_offer',
    {},
    () => setSetting(stack, 'welcome_credits', String(1000 + Math.floor(Math.random() * 1000))),
  ],
];

async function expectOk(answer: Promise<{ status: number; body: unknown }>) {
  const { status, body } = await answer;
  if (status !== 200) throw new Error(`${status} ${JSON.stringify(body)}`);
}

describe('ETag and 304 through the gateway', () => {
  test.each(READS)(
    'when the client holds the current %s, then 304 without a body through either gateway; after a change, 200 with another ETag',
    async (path, headers, change) => {
      const first = await fetch(`${stack.url}${path}`, { headers });
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^".+"$/);
      expect(first.headers.get('cache-control')).toBe('public, no-cache');
      const body = await first.text();
      for (const [, base] of gateways()) {
        const again = await fetch(`${base}${path}`, { headers: { ...headers, 'If-None-Match': etag } });
        expect(again.status).toBe(304);
        expect(await again.text()).toBe('');
      }

      await change();
      for (const [, base] of gateways()) {
        const after = await fetch(`${base}${path}`, { headers: { ...headers, 'If-None-Match': etag } });
        expect(after.status).toBe(200);
        expect(after.headers.get('etag')).not.toBe(etag);
        expect(await after.text()).not.toBe(body);
      }
    },
  );
});
