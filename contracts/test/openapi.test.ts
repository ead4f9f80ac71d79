import { describe, expect, test } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { apiRoutes, buildOpenApiDocument, toExpressPath } from '../src/openapi';

/** Every call of docs/product.md, Calls, as `METHOD path`. */
const specCalls = [
  'POST /api/auth/login',
  'POST /api/auth/register',
  'GET /api/auth/profile',
  'POST /api/auth/change-password',
  'GET /api/articles',
  'GET /api/articles/category/{slug}',
  'GET /api/articles/tag/{slug}',
  'GET /api/articles/search',
  'GET /api/articles/{slug}',
  'GET /api/article_categories/select',
  'GET /api/article_tags/select',
  'POST /api/feedback',
  'GET /api/admin/stats',
  'GET /api/admin/tariffs/all',
  'GET /api/admin/users',
  'GET /api/admin/utm/stats',
  'PUT /api/admin/users/{id}',
  'DELETE /api/admin/users/{id}',
  'GET /api/admin/articles',
  'POST /api/admin/articles',
  'PUT /api/admin/articles/{id}',
  'DELETE /api/admin/articles/{id}',
  'POST /api/admin/article_categories',
  'PUT /api/admin/article_categories/{id}',
  'DELETE /api/admin/article_categories/{id}',
  'POST /api/admin/article_tags',
  'PUT /api/admin/article_tags/{id}',
  'DELETE /api/admin/article_tags/{id}',
  'GET /api/admin/models',
  'POST /api/admin/models',
  'PUT /api/admin/models/{id}',
  'DELETE /api/admin/models/{id}',
  'GET /api/admin/history',
  'GET /api/admin/history/{id}',
  'GET /api/admin/history/prev/{id}',
  'GET /api/admin/history/next/{id}',
  'GET /api/admin/payments',
  'GET /api/admin/payments/{id}',
  'GET /api/admin/sys_vals',
  'POST /api/admin/sys_vals',
  'PUT /api/admin/sys_vals/{key}',
  'DELETE /api/admin/sys_vals/{key}',
  'GET /api/admin/tariffs',
  'POST /api/admin/tariffs',
  'PUT /api/admin/tariffs/{id}',
  'DELETE /api/admin/tariffs/{id}',
];

/** Calls the issues add on top of the spec. */
const issueCalls = [
  'POST /api/auth/link',
  'POST /api/bot/users',
  'POST /api/bot/link-tokens',
  'GET /api/tariffs',
  'POST /api/billing/payments',
  'GET /api/billing/payments/{id}',
  'POST /api/billing/webhooks/yookassa',
  'POST /api/bot/payments',
  'PATCH /api/bot/payments/{id}/email',
  'GET /api/bot/balance',
  'POST /api/bot/messages',
  'GET /api/bot/models',
  'GET /api/bot/settings',
  'GET /api/admin/history/export',
  'POST /api/admin/article_media',
  'GET /api/article_media/{id}',
  'GET /api/admin/stats/series',
];

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}
interface Document {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const doc = buildOpenApiDocument() as unknown as Document;

function operation(call: string): Operation | undefined {
  const [method = '', path = ''] = call.split(' ');
  return doc.paths[path]?.[method.toLowerCase()];
}

describe('buildOpenApiDocument', () => {
  test('when built, then it is a valid OpenAPI 3.1 document served from /', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/' }]);
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  test.each(specCalls)('when the docs/product.md, Calls call %s is looked up, then the document has it', (call) => {
    expect(operation(call)).toBeDefined();
  });

  test.each(issueCalls)('when the issues call %s is looked up, then the document has it', (call) => {
    expect(operation(call)).toBeDefined();
  });

  test('when every operation is listed, then ids are unique and each is tagged with its owning service', () => {
    const ids = new Set<string>();
    for (const route of apiRoutes) {
      const op = operation(`${route.method} ${route.path}`);
      expect(op?.tags).toEqual([route.service]);
      expect(op?.operationId).toBeDefined();
      ids.add(op?.operationId ?? '');
    }
    expect(ids.size).toBe(apiRoutes.length);
    const documented = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(documented).toBe(apiRoutes.length);
  });

  test('when a route is admin, user, bot or public, then its security and error answers say so', () => {
    expect(doc.components.securitySchemes).toHaveProperty('bearerAuth');
    expect(doc.components.securitySchemes).toHaveProperty('botKey');
    const errorRef = { $ref: '#/components/schemas/ErrorBody' };

    const admin = operation('GET /api/admin/users');
    expect(admin?.security).toEqual([{ bearerAuth: [] }]);
    expect(admin?.responses['401']?.content?.['application/json']?.schema).toEqual(errorRef);
    expect(admin?.responses['403']?.content?.['application/json']?.schema).toEqual(errorRef);

    const bot = operation('POST /api/bot/users');
    expect(bot?.security).toEqual([{ botKey: [] }]);
    expect(bot?.responses['401']).toBeDefined();

    const login = operation('POST /api/auth/login');
    expect(login?.security).toEqual([]);
    expect(login?.responses['400']?.content?.['application/json']?.schema).toEqual(errorRef);
    expect(login?.responses['429']).toBeDefined();
    expect(login?.responses['200']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/AuthResponse',
    });
  });

  test('when path parameters are described, then they are required and named as in the path', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      for (const op of Object.values(item)) {
        const pathParams = (op.parameters ?? []).filter((param) => param.in === 'path');
        expect(pathParams.map((param) => param.name).sort()).toEqual([...names].sort());
        for (const param of pathParams) expect(param.required).toBe(true);
      }
    }
  });

  test('when the list query of admin users is described, then page, limit, sort and filters are query parameters', () => {
    const names = (operation('GET /api/admin/users')?.parameters ?? []).map((param) => param.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'page',
        'limit',
        'sortField',
        'sortOrder',
        'email',
        'username',
        'utm_source',
        'tariff_id',
      ]),
    );
    const history = (operation('GET /api/admin/history')?.parameters ?? []).map((param) => param.name);
    expect(history).toEqual(expect.arrayContaining(['page', 'pageSize', 'limit', 'userId', 'username', 'message']));
  });

  test('when components are listed, then entities, money and event schemas are named', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'ErrorBody',
        'Pagination',
        'Money',
        'UsdAmount',
        'UserProfile',
        'AdminUserRow',
        'AdminArticle',
        'PublicArticle',
        'Payment',
        'Tariff',
        'HistoryMessage',
        'AdminStats',
        'EventEnvelope',
        'CreditsChangedData',
        'MessageRecordedData',
      ]),
    );
  });

  test('when a field has a pattern, then it is a plain regular expression that its valid values match', () => {
    const patterns = new Map<string, string>();
    JSON.stringify(doc, (key, value: unknown) => {
      if (key === 'pattern' && typeof value === 'string') patterns.set(value, value);
      return value;
    });
    expect(patterns.size).toBeGreaterThan(0);
    for (const pattern of patterns.keys()) expect(() => new RegExp(pattern, 'u')).not.toThrow();
    const link = [...patterns.keys()].find((pattern) => pattern.includes('https'));
    expect(new RegExp(link!, 'u').test('https://example.com/a.png')).toBe(true);
    expect(new RegExp(link!, 'u').test('HTTP://EXAMPLE.COM/')).toBe(true);
  });
});

describe('toExpressPath', () => {
  test('when a path has parameters, then they become express parameters', () => {
    expect(toExpressPath('/api/admin/history/prev/{id}')).toBe('/api/admin/history/prev/:id');
    expect(toExpressPath('/api/admin/sys_vals/{key}')).toBe('/api/admin/sys_vals/:key');
  });
});
