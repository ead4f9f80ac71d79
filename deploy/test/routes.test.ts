import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { apiPath, apiRoutes, toExpressPath } from '@gpt/contracts/openapi';
import { contractRouter, notServed, signAccessToken } from '@gpt/kit';
import { TEST_SECRETS } from '@gpt/kit/testing';
import express, { type Express } from 'express';
import { callApi, startTestStack, type TestStack } from '../src/testing';

/**
 * A route is declared once, in the contracts' `apiRoutes` (which the OpenAPI document and the gateway's
 * route table are built from too); every service serves exactly its routes of that list through
 * `contractRouter`, which checks access, validates the input and answers through the response schema
 * (docs/architecture.md, Adding a route). The calls below go to the services themselves, not through
 * the gateway: a service enforces access on its own.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
}, 60_000);
afterAll(() => stack?.close());

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** `METHOD /path` of every route an express app's routers declare (express 5 keeps them in `router.stack`). */
function declaredRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (layers: Layer[]) => {
    for (const layer of layers) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') found.push(`${method.toUpperCase()} ${path}`);
          }
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}

const serviceUrl = (name: string) => stack.services.find((candidate) => candidate.name === name)!.url;
const call = (service: string, method: string, path: string, options: Parameters<typeof callApi>[3] = {}) =>
  callApi(serviceUrl(service), method, path, options);
const token = (role: 'admin' | 'user') =>
  signAccessToken({ sub: '987654321', role, ver: 0 }, TEST_SECRETS.JWT_SECRET as string);

describe('every service serves exactly its routes of the contracts', () => {
  test.each(['auth', 'content', 'billing', 'chat-history', 'metrics', 'bot'])('%s', (name) => {
    const service = stack.services.find((candidate) => candidate.name === name)!;
    const answered = declaredRoutes(service.app)
      .filter((route) => route.split(' ')[1]!.startsWith('/api/'))
      .sort();
    // The test stack runs both sandboxes (no YooKassa keys, no bot token), so their routes are served too.
    const declared = apiRoutes
      .filter((route) => route.service === name)
      .map((route) => `${route.method.toUpperCase()} ${toExpressPath(route.path)}`)
      .sort();
    expect(answered).toEqual(declared);
  });

  test('a service refuses to start with a handler missing or one for a route it does not own', () => {
    const guards = { jwtSecret: 'secret', kv: stack.services[0]!.deps.kv };
    const answer = () => ({}) as never;
    const handlers = {
      getAdminStats: answer,
      getAdminAudit: answer,
      getAdminAuditVerify: answer,
      getAdminAuditExport: answer,
    };
    expect(() => contractRouter('metrics', guards, handlers as never)).toThrow(
      "metrics: handlers do not match the contracts' routes (missing: getAdminStatsSeries; extra: -)",
    );
    expect(() =>
      contractRouter('metrics', guards, {
        ...handlers,
        getAdminStatsSeries: handlers.getAdminStats,
        getTariffs: 1,
      } as never),
    ).toThrow('(missing: -; extra: getTariffs)');
  });
});

describe('a contract route at its service', () => {
  test('admin routes: no token 401, a user 403, an admin gets the answer', async () => {
    const path = apiPath('getAdminTariffs');
    const anonymous = await call('billing', 'GET', path);
    const user = await call('billing', 'GET', path, { token: token('user') });
    const admin = await call('billing', 'GET', path, { token: token('admin') });
    expect([anonymous.status, user.status, admin.status]).toEqual([401, 403, 200]);
    expect(user.body).toMatchObject({ code: 'forbidden', error: 'Недостаточно прав' });
  });

  test('user routes need a token; bot routes need the bot key', async () => {
    expect((await call('billing', 'GET', apiPath('getBillingBalance'))).status).toBe(401);
    const keyless = await call('chat-history', 'GET', apiPath('getBotModes'));
    expect(keyless.status).toBe(401);
    expect(keyless.body).toMatchObject({ code: 'invalid_bot_key' });
    const wrongKey = await call('chat-history', 'GET', apiPath('getBotModes'), { botKey: 'wrong' });
    expect(wrongKey.status).toBe(401);
    const bot = await call('chat-history', 'GET', apiPath('getBotModes'), {
      botKey: TEST_SECRETS.BOT_API_KEY,
    });
    expect(bot.status).toBe(200);
  });

  test('the body, the query and the path parameters are checked against the contract (400 in Russian)', async () => {
    const body = await call('content', 'POST', apiPath('postFeedback'), { body: {} });
    const query = await call('metrics', 'GET', `${apiPath('getAdminStatsSeries')}?days=abc`, {
      token: token('admin'),
    });
    const params = await call('billing', 'PUT', apiPath('putAdminTariffsById', { id: 'abc' }), {
      token: token('admin'),
      body: {},
    });
    for (const answer of [body, query, params]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'validation_error', error: expect.stringMatching(/[а-яё]/i) });
    }
    const nul = await call('content', 'POST', apiPath('postFeedback'), {
      body: { telegram: '@a\u0000', subject: 'тема', message: 'текст' },
    });
    expect(nul.body).toMatchObject({ code: 'nul_character' });
  });

  test("a route may answer invalid path parameters its own way (an image's 404)", async () => {
    const image = await call('chat-history', 'GET', apiPath('getMediaById', { id: 'not-an-id' }));
    expect(image.status).toBe(404);
  });

  test('the answer is the response schema of the contract: nothing more', async () => {
    const info = await call('bot', 'GET', apiPath('getTelegramInfo'));
    expect(info.status).toBe(200);
    expect(Object.keys(info.body).sort()).toEqual(['sandbox', 'url', 'username']);
  });

  test('a route this instance does not serve is not there (a sandbox that is off): 404 like any unknown path', () => {
    const guards = { jwtSecret: 'secret', kv: stack.services[0]!.deps.kv };
    const app = express().use(
      contractRouter('metrics', guards, {
        getAdminStats: notServed,
        getAdminStatsSeries: () => ({}) as never,
        getAdminAudit: notServed,
        getAdminAuditVerify: notServed,
        getAdminAuditExport: notServed,
      }),
    );
    expect(declaredRoutes(app)).toEqual(['GET /api/admin/stats/series']);
  });
});
