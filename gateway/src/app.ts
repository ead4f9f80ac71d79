import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AccessClaims,
  addressBlock,
  AppError,
  badPath,
  isWellFormedPath,
  type KeyValue,
  type Logger,
  parseJsonBody,
  payloadTooLarge,
  requestIdFrom,
  tooManyRequests,
} from '@gpt/kit';
import { createAccessControl } from './access';
import { createAccessLog } from './access-log';
import { createClientIp, createIsHttps } from './client-ip';
import type { GatewayConfig } from './config';
import { GatewayRequest } from './gateway-request';
import { createHealthCheck, createReadiness } from './health';
import { accountKey, createRateLimits, type RateLimitPolicy } from './rate-limits';
import { sendAppError, sendError, sendJson } from './respond';
import { compileRouteTable, normalizeApiPath, ROUTE_TABLE, type ServiceName } from './route-table';
import { apiSecurityHeaders, applyHeaders, pageSecurityHeaders, STRICT_TRANSPORT_SECURITY } from './security-headers';
import { createSeoSource } from './seo';
import { createUpstreams, type InProcessServices } from './upstreams';
import { createWebApp, runtimeConfigScript } from './web-app';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  kv: KeyValue;
  /** The OpenAPI document served at /api/openapi.json, built on its first request (most runs never ask). */
  openapi: () => object;
  /** Services running in this process (the embedded default): requests reach them without a socket. */
  inProcess?: InProcessServices;
}

export interface Gateway {
  /** Not listening yet: `server.listen(port)` is the caller's business. */
  server: Server;
  /** Stops accepting, lets in-flight requests finish, drops the upstream connections. */
  close(): Promise<void>;
}

/** How long close() waits for in-flight requests before cutting their connections. */
const SHUTDOWN_GRACE_MS = 5000;
const TOO_MANY = 'Слишком много запросов, попробуйте позже';
/** The only body the gateway ever reads is a login form; anything bigger is not one. */
const MAX_LOGIN_BODY = 16 * 1024;
/** Dot segments could make a path mean something other than what the route table saw. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * The gateway: a bare node:http server with a precomputed route table in front. A proxied request
 * costs a route lookup, the access check (cached), a few header writes and http-proxy-middleware;
 * no express, no body parsing. Express serves only the web app and the API reference.
 */
export function buildGateway(deps: GatewayDeps): Gateway {
  const { config, logger, kv } = deps;
  const findRoute = compileRouteTable(ROUTE_TABLE);
  const access = createAccessControl({ jwtSecret: config.JWT_SECRET, botApiKey: config.BOT_API_KEY, kv, logger });
  const limits = createRateLimits({ config, kv, logger });
  const upstreams = createUpstreams({ config, logger, inProcess: deps.inProcess });
  const health = createHealthCheck({ targets: upstreams.targets, kv });
  const ready = createReadiness(kv);
  const clientIp = createClientIp(config.TRUST_PROXY);
  const isHttps = createIsHttps(config.TRUST_PROXY);
  const runtimeScript = runtimeConfigScript(config);
  const pageHeaders = pageSecurityHeaders([runtimeScript.hash]);
  const apiHeaders = apiSecurityHeaders();
  const web = createWebApp({
    webDir: config.WEB_DIR,
    runtimeScriptTag: runtimeScript.tag,
    openapi: deps.openapi,
    seo: createSeoSource({ contentUrl: config.CONTENT_URL, logger }),
    siteUrl: config.SITE_URL,
  });
  const logAccess = config.ACCESS_LOG ? createAccessLog(logger) : undefined;

  const forward = (req: GatewayRequest, res: ServerResponse, service: ServiceName) => {
    stripHeadersForUpstream(req.headers);
    req.headers['x-forwarded-for'] = clientIp(req);
    upstreams.proxy(service, req, res);
  };

  const fail = (req: GatewayRequest, res: ServerResponse, err: unknown) => {
    if (!(err instanceof AppError)) logger.error({ err, reqId: req.requestId }, 'gateway failed a request');
    if (res.headersSent) res.destroy();
    else sendAppError(res, err);
  };

  const proceed = (
    req: GatewayRequest,
    res: ServerResponse,
    service: ServiceName,
    path: string,
    verdict: AccessClaims | AppError | null,
  ) => {
    if (verdict instanceof AppError) {
      sendAppError(res, verdict);
      return;
    }
    const policy = limits.policyFor(req.method, path);
    if (policy) limitThenForward(req, res, service, policy, verdict).catch((err: unknown) => fail(req, res, err));
    else forward(req, res, service);
  };

  const limitThenForward = async (
    req: GatewayRequest,
    res: ServerResponse,
    service: ServiceName,
    policy: RateLimitPolicy,
    claims: AccessClaims | null,
  ) => {
    // An IPv6 client counts by its /64: rotating through its own network gives no new allowance.
    const ip = addressBlock(clientIp(req));
    let wait = policy.perIp ? await policy.perIp.consume(ip) : 0;
    if (wait === 0 && policy.perUser && claims) wait = await policy.perUser.consume(claims.sub);
    if (wait === 0 && policy.perAccount) {
      const body = await readSmallBody(req, MAX_LOGIN_BODY);
      req.bufferedBody = body;
      // The same reading as auth's: a body auth would refuse is refused here, before anything is counted.
      const email = emailOf(parseJsonBody(body, req.headers['content-type']));
      if (email) {
        const account = accountKey(email);
        const pair = `${account}:${ip}`;
        const { perAddress, overall, delayMs } = policy.perAccount;
        wait = await perAddress.consume(pair);
        if (wait === 0) {
          const delay = delayMs(await overall.count(account));
          if (delay > 0) await sleep(delay);
        }
        req.onUpstreamResponse = (status) => {
          if (status >= 200 && status < 300) void Promise.all([perAddress.reset(pair), overall.reset(account)]);
        };
      }
    }
    if (wait > 0) {
      const limited = tooManyRequests(TOO_MANY, wait);
      // Whatever of the body is still unread is not worth reading: close the connection after this answer.
      if (!req.readableEnded) res.setHeader('Connection', 'close');
      sendAppError(res, limited);
      return;
    }
    forward(req, res, service);
  };

  /**
   * The API document: in production for admins only (the /api/docs page sends the site's session
   * token for it), so the route list is no map for strangers; elsewhere public.
   */
  const serveApiDocument = (req: GatewayRequest, res: ServerResponse) => {
    if (config.NODE_ENV !== 'production') return web(req, res);
    const settle = (verdict: AccessClaims | AppError | null) =>
      verdict instanceof AppError ? sendAppError(res, verdict) : web(req, res);
    const verdict = access.check('admin', req.headers.authorization, undefined);
    if (verdict instanceof Promise) verdict.then(settle, (err: unknown) => fail(req, res, err));
    else settle(verdict);
  };

  const handleApi = (req: GatewayRequest, res: ServerResponse, rawPath: string) => {
    const path = normalizeApiPath(rawPath);
    const route = findRoute(path);
    if (!route) {
      if (path === '/api/healthz') {
        health().then(
          (report) => sendJson(res, report.status === 'ok' ? 200 : 503, report),
          (err: unknown) => fail(req, res, err),
        );
      } else if (path === '/api/openapi.json') {
        serveApiDocument(req, res);
      } else if (path === '/api/docs' || path.startsWith('/api/docs/')) {
        applyHeaders(res, pageHeaders);
        web(req, res);
      } else sendError(res, 404, 'not_found', 'Не найдено');
      return;
    }
    if ((rawPath.includes('.') || rawPath.includes('%')) && DOT_SEGMENT.test(rawPath)) {
      sendAppError(res, badPath());
      return;
    }
    req.service = route.service;
    const verdict = access.check(route.access, req.headers.authorization, req.headers['x-bot-key']);
    if (verdict instanceof Promise) {
      verdict.then(
        (settled) => proceed(req, res, route.service, path, settled),
        (err: unknown) => fail(req, res, err),
      );
    } else proceed(req, res, route.service, path, verdict);
  };

  const handle = (req: GatewayRequest, res: ServerResponse) => {
    req.startedAt = performance.now();
    const requestId = requestIdFrom(req.headers['x-request-id']);
    req.requestId = requestId;
    req.headers['x-request-id'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (logAccess) res.once('close', () => logAccess(req, res));

    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (isHttps(req)) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    if (!isWellFormedPath(path)) {
      applyHeaders(res, apiHeaders);
      sendAppError(res, badPath());
      return;
    }
    if (path.startsWith('/api/') || path === '/api') {
      applyHeaders(res, apiHeaders);
      handleApi(req, res, path);
    } else if (path === '/healthz') {
      applyHeaders(res, apiHeaders);
      sendJson(res, 200, { status: 'ok' });
    } else if (path === '/readyz') {
      applyHeaders(res, apiHeaders);
      void ready().then((ok) =>
        ok ? sendJson(res, 200, { status: 'ok' }) : sendError(res, 503, 'not_ready', 'Сервис временно недоступен'),
      );
    } else {
      applyHeaders(res, pageHeaders);
      web(req, res);
    }
  };

  const server = createServer({ IncomingMessage: GatewayRequest }, (req, res) => {
    try {
      handle(req as GatewayRequest, res);
    } catch (err) {
      fail(req as GatewayRequest, res, err);
    }
  });
  // Idle client connections stay open longer than any client or load balancer keeps them, so it is
  // always the client that closes (no request lost on a connection the server just closed).
  server.keepAliveTimeout = config.KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = config.KEEP_ALIVE_TIMEOUT_MS + 1000;
  server.requestTimeout = Math.max(server.requestTimeout, server.headersTimeout);

  return {
    server,
    async close() {
      if (server.listening) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // In-flight requests get a grace period; a client that stops reading does not hold the shutdown.
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await closed;
        clearTimeout(force);
      }
      upstreams.close();
    },
  };
}

/** Identity is what the token says; whatever a client claims about itself in headers is dropped. */
const CLAIMED_IDENTITY = new Set(['x-forwarded-user', 'x-remote-user', 'x-role', 'x-real-ip', 'forwarded']);
const CLAIMED_IDENTITY_PREFIXES = ['x-user', 'x-auth', 'x-internal'];

/**
 * Headers the service must not see as the client sent them: claimed identity, and `Expect`
 * (the gateway already answered "100 Continue" itself; forwarding it would make the upstream wait).
 */
function stripHeadersForUpstream(headers: IncomingHttpHeaders): void {
  for (const name in headers) {
    // Most headers are skipped on their first letter: only x-…, forwarded and expect can match.
    const first = name[0];
    if (
      (first === 'x' || first === 'f' || first === 'e') &&
      (CLAIMED_IDENTITY.has(name) || name === 'expect' || hasClaimedIdentityPrefix(name))
    ) {
      delete headers[name];
    }
  }
}

function hasClaimedIdentityPrefix(name: string): boolean {
  for (const prefix of CLAIMED_IDENTITY_PREFIXES) if (name.startsWith(prefix)) return true;
  return false;
}

function readSmallBody(req: GatewayRequest, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(payloadTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.pause();
        reject(payloadTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => reject(new AppError('Запрос прерван', 'client_closed', 400)));
  });
}

/** The e-mail of a login form, if it has one; a form without is the service's to refuse. */
function emailOf(form: unknown): string | undefined {
  if (form && typeof form === 'object' && 'email' in form && typeof form.email === 'string') {
    return form.email.trim().toLowerCase() || undefined;
  }
  return undefined;
}
