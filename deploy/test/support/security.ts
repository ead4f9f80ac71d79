import { request } from 'node:http';
import { expect } from '@jest/globals';
import { type ApiAnswer, callApi, MANY_USERS_ENV, type TestStack } from '@gpt/deploy/testing';
import { inPool } from './async';

/** Secrets of the security suites' stacks, so the tests can sign (and forge) tokens themselves. */
export const JWT_SECRET = 'security-matrix-jwt-secret-0123456789abcdef';
export const BOT_KEY = 'security-matrix-bot-key';
export const SECURITY_ENV = {
  ...MANY_USERS_ENV,
  JWT_SECRET,
  BOT_API_KEY: BOT_KEY,
  RATE_LIMIT_PASSWORD_CHANGE_POINTS: '100000',
  RATE_LIMIT_PAYMENT_POINTS: '100000',
  RATE_LIMIT_PROMO_POINTS: '100000',
  RATE_LIMIT_PROMO_IP_POINTS: '100000',
  RATE_LIMIT_PASSWORD_RESET_CONFIRM_POINTS: '100000',
  PASSWORD_RESET_CONFIRM_PER_TOKEN_POINTS: '100000',
};

/**
 * One request as a client the test cannot make with fetch: from another loopback source address
 * (127.0.0.2, 127.0.0.3: the gateway sees a different client), with any Host header, with a body of raw bytes.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { from?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<ApiAnswer<unknown>> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        localAddress: options.from,
        headers: {
          'content-type': 'application/json',
          // Node sends no length for a DELETE body by itself.
          ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value) headers.set(name, String(value));
          const json = headers.get('content-type')?.includes('json') && text !== '';
          resolve({ status: res.statusCode!, body: json ? (JSON.parse(text) as unknown) : text, headers });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A refusal by a rate limit: 429, the usual error body, and a Retry-After within the limit's window. */
export function expectLimited(res: ApiAnswer<unknown>, windowSec: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ code: 'rate_limited', error: expect.stringMatching(/\S/) });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSec);
}

/** The part of JSON Schema the OpenAPI document uses for parameters and bodies. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
}

export interface Operation {
  method: string;
  /** OpenAPI style, `/api/admin/users/{id}`. */
  path: string;
  /** `bearer`, `bot` or `none`, from the operation's security requirement. */
  security: 'bearer' | 'bot' | 'none';
  pathParams: { name: string; schema: JsonSchema }[];
  /** The JSON request body, references resolved. */
  body?: JsonSchema;
}

interface OpenApiOperation {
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** Every operation of an OpenAPI document: a new route is covered the day it is added. */
export function operationsOf(document: object): Operation[] {
  const doc = document as OpenApiDocument;
  const resolve = (schema: JsonSchema): JsonSchema =>
    schema.$ref ? resolve(doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]!) : schema;
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): Operation => {
      const scheme = Object.keys(op.security?.[0] ?? {})[0];
      const body = op.requestBody?.content['application/json']?.schema;
      return {
        method: method.toUpperCase(),
        path,
        security: scheme === 'bearerAuth' ? 'bearer' : scheme === 'botKey' ? 'bot' : 'none',
        pathParams: (op.parameters ?? [])
          .filter((param) => param.in === 'path')
          .map((param) => ({
            name: param.name,
            schema: resolve(param.schema),
          })),
        body: body && resolve(body),
      };
    }),
  );
}

/** The operations of the OpenAPI document the gateway serves. */
export async function servedOperations(stack: TestStack): Promise<Operation[]> {
  const res = await callApi<OpenApiDocument>(stack.url, 'GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  return operationsOf(res.body);
}

/** The operation's path with its parameters filled in: given values, else ids and keys that exist nowhere. */
export function concretePath(op: Operation, values: Record<string, string | number> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = op.pathParams.find((p) => p.name === name);
    const dummy = param?.schema.type === 'integer' ? '987654321' : 'security-matrix-none';
    return encodeURIComponent(String(values[name] ?? dummy));
  });
}

export interface Session {
  id: number;
  email: string;
  password: string;
  token: string;
}

/** Signs in through the gateway; fails the test unless it worked. */
export async function login(stack: TestStack, email: string, password: string): Promise<Session> {
  const res = await callApi<{ token: string; user: { id: number } }>(stack.url, 'POST', '/api/auth/login', {
    body: { email, password },
  });
  expect(res.status).toBe(200);
  return { id: res.body.user.id, email, password, token: res.body.token };
}

/** What every refusal must look like: the status asked for and a JSON body with a sentence in `error`. */
export function refusalProblem(
  res: { status: number; body: unknown },
  allowed: (status: number) => boolean,
): string | undefined {
  const body = res.body as { error?: unknown; code?: unknown } | string;
  if (!allowed(res.status)) return `status ${res.status}: ${JSON.stringify(body).slice(0, 200)}`;
  if (typeof body !== 'object' || body === null || typeof body.error !== 'string' || !body.error.trim()) {
    return `no JSON error message: ${JSON.stringify(body).slice(0, 200)}`;
  }
  if (typeof body.code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(body.code)) return `bad code ${String(body.code)}`;
  return undefined;
}

export type CallOptions = NonNullable<Parameters<typeof callApi>[3]>;

/** One request of a matrix; `label` says what is odd about it. */
export interface Case {
  label?: string;
  method: string;
  path: string;
  options: CallOptions;
}

/** Each operation once (dummy path ids), with the options given for it. */
export const casesFor = (ops: Operation[], options: (op: Operation) => CallOptions): Case[] =>
  ops.map((op) => ({ method: op.method, path: concretePath(op), options: options(op) }));

/** Sends the cases a few at a time; lists each answer the judge finds wrong. */
export async function problemsOf<C extends Case>(
  stack: TestStack,
  cases: C[],
  judge: (res: ApiAnswer<unknown>, c: C) => string | undefined,
): Promise<string[]> {
  const problems: string[] = [];
  await inPool(cases.length, 8, async (i) => {
    const c = cases[i]!;
    const problem = judge(await callApi(stack.url, c.method, c.path, c.options), c);
    if (problem) problems.push(`${c.method} ${c.path}${c.label ? ` with ${c.label}` : ''}: ${problem}`);
  });
  return problems.sort();
}
