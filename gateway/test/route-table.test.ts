import { apiRoutes, type ApiRoute } from '@gpt/contracts/openapi';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { compileRouteTable, routeRulesOf } from '../src/route-table';
import { adminToken, bearer, BOT_API_KEY, startTestGateway, type TestGateway, userToken } from './support/harness';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});

afterAll(async () => {
  await gw.close();
});

/** A concrete path of a contract route: each `{param}` filled in. */
const concrete = (route: ApiRoute) => route.path.replace(/\{[^}]+\}/g, '1');

const credentials: Record<ApiRoute['access'], Record<string, string>> = {
  public: {},
  webhook: {},
  user: bearer(userToken()),
  admin: bearer(adminToken()),
  bot: { 'x-bot-key': BOT_API_KEY },
};

const call = (route: ApiRoute, headers: Record<string, string>) =>
  fetch(gw.url + concrete(route), {
    method: route.method.toUpperCase(),
    headers: {
      ...headers,
      ...(route.method === 'get' || route.method === 'delete' ? {} : { 'content-type': 'application/json' }),
    },
    body: route.method === 'get' || route.method === 'delete' ? undefined : '{}',
  });

describe('every route of the contracts', () => {
  const cases = apiRoutes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const);

  test.each(cases)('%s reaches its service with its access', async (_name, route) => {
    const res = await call(route, credentials[route.access]);

    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ service: route.service, url: concrete(route) });
  });

  test.each(cases.filter(([, route]) => ['user', 'admin', 'bot'].includes(route.access)))(
    '%s without credentials is refused at the gateway',
    async (_name, route) => {
      const res = await call(route, {});

      expect(res.status).toBe(401);
    },
  );
});

describe('routeRulesOf', () => {
  test('when two routes of one resource disagree on access, then the table is refused', () => {
    expect(() =>
      routeRulesOf([
        { path: '/api/things', service: 'content', access: 'public' },
        { path: '/api/things/{id}', service: 'content', access: 'user' },
      ]),
    ).toThrow(/disagree/);
  });

  test('when a route is under /api/admin/ without the admin role, then the gateway refuses to start', () => {
    const rules = routeRulesOf([{ path: '/api/admin/things', service: 'content', access: 'public' }]);

    expect(() => compileRouteTable(rules)).toThrow(/admin role/);
  });
});
