import { type IncomingHttpHeaders, IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Logger } from '@gpt/kit';
import { type Dispatcher, Pool } from 'undici';
import type { GatewayConfig } from './config';
import type { GatewayRequest } from './gateway-request';
import { sendError } from './respond';
import { SERVICES, type ServiceName } from './route-table';

const UNAVAILABLE = 'Сервис временно недоступен';
/** Errors that mean the service could not be reached at all (→ 503); anything else is a bad answer (→ 502). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** The service's own connection terms (and express's banner) stay between it and the gateway. */
const UPSTREAM_ONLY = new Set(['connection', 'keep-alive', 'transfer-encoding', 'x-powered-by']);
/** Hop-by-hop headers (RFC 9110, 7.6.1): the client's terms with the gateway, not the service's. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * A service in the gateway's own process (the embedded default): its HTTP handler, called with the
 * gateway's own request and response instead of a loopback connection.
 */
export type InProcessServices = Partial<Record<ServiceName, RequestListener>>;

export interface Upstreams {
  /** Where each service listens (its health is asked there). */
  readonly targets: Readonly<Record<ServiceName, string>>;
  /** Streams the request to the service and its answer back (or hands both to it in process); never throws, never hangs. */
  proxy(service: ServiceName, req: GatewayRequest, res: ServerResponse): void;
  close(): Promise<void>;
}

/** Why the gateway gave up on an upstream request whose client had already gone. */
class ClientGone extends Error {}

/**
 * One undici connection pool per service (keep-alive, at most UPSTREAM_MAX_SOCKETS connections),
 * each request dispatched with a handler that writes the answer straight onto the client's response.
 * Measured in bench/reads.mjs (docs/benchmarks.md, «Multi-process reads: where the time goes»): the
 * same proxying through http-proxy-middleware and node:http's client cost the gateway about twice
 * the CPU per request. A service given in `inProcess` is not proxied: its handler answers on the
 * gateway's own response.
 */
export function createUpstreams(options: {
  config: GatewayConfig;
  logger: Logger;
  inProcess?: InProcessServices;
}): Upstreams {
  const { config, logger } = options;
  const inProcess = options.inProcess ?? {};
  const targets: Record<ServiceName, string> = {
    auth: config.AUTH_URL,
    content: config.CONTENT_URL,
    billing: config.BILLING_URL,
    'chat-history': config.CHAT_HISTORY_URL,
    metrics: config.METRICS_URL,
    bot: config.BOT_URL,
  };
  const pools = new Map<ServiceName, Pool>();
  for (const service of SERVICES) {
    pools.set(
      service,
      new Pool(targets[service], {
        connections: config.UPSTREAM_MAX_SOCKETS,
        // A service that does not even accept the connection in time is treated as down (→ 503).
        connect: { timeout: config.UPSTREAM_CONNECT_TIMEOUT_MS },
        // A service silent this long, before its headers or between two chunks of its body, is given up (→ 502).
        headersTimeout: config.UPSTREAM_TIMEOUT_MS,
        bodyTimeout: config.UPSTREAM_TIMEOUT_MS,
      }),
    );
  }

  const failed = (req: GatewayRequest, res: ServerResponse, err: Error) => {
    if (err instanceof ClientGone) {
      // The client went away while the upstream was still answering; nothing left to tell anyone.
      logger.debug({ reqId: req.requestId, service: req.service }, 'client aborted');
      return;
    }
    const code = (err as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    logger.warn({ reqId: req.requestId, service: req.service, code, err: err.message }, 'upstream failed');
    if (res.headersSent) res.destroy();
    else sendError(res, UNREACHABLE.has(code) ? 503 : 502, 'upstream_unavailable', UNAVAILABLE);
  };

  const forward = (pool: Pool, req: GatewayRequest, res: ServerResponse) => {
    let ended = false;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(controller) {
        res.once('close', () => {
          if (!ended) controller.abort(new ClientGone('client aborted'));
        });
      },
      onResponseStart(_controller, statusCode, headers) {
        res.statusCode = statusCode;
        for (const name in headers) if (!UPSTREAM_ONLY.has(name)) res.setHeader(name, headers[name]!);
        req.onUpstreamResponse?.(statusCode);
      },
      onResponseData(controller, chunk) {
        if (!res.write(chunk)) {
          controller.pause();
          res.once('drain', () => controller.resume());
        }
      },
      onResponseEnd() {
        ended = true;
        res.end();
      },
      onResponseError(_controller, err) {
        ended = true;
        failed(req, res, err);
      },
    };
    try {
      const headers = upstreamHeaders(req.headers);
      pool.dispatch(
        { method: req.method as Dispatcher.HttpMethod, path: req.url ?? '/', headers, body: bodyOf(req) },
        handler,
      );
    } catch (err) {
      failed(req, res, err instanceof Error ? err : new Error(String(err)));
    }
  };

  return {
    targets,
    proxy(service, req, res) {
      const handler = inProcess[service];
      if (handler) dispatchInProcess(handler, req, res, config.UPSTREAM_TIMEOUT_MS);
      else forward(pools.get(service)!, req, res);
    },
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.destroy()));
    },
  };
}

/**
 * What the upstream request carries: a body the gateway already read (a login form), else the
 * client's body as it streams in, or nothing for a request that declares none.
 */
function bodyOf(req: GatewayRequest): Buffer | IncomingMessage | null {
  if (req.bufferedBody) return req.bufferedBody;
  const length = req.headers['content-length'];
  const declared = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  return declared ? req : null;
}

/**
 * The request's headers for the service, as undici's flat [name, value, …] list: all but the
 * hop-by-hop ones and those the client's Connection header names.
 */
function upstreamHeaders(headers: IncomingHttpHeaders): string[] {
  const named = headers.connection?.toLowerCase().split(',');
  const flat: string[] = [];
  for (const name in headers) {
    if (HOP_BY_HOP.has(name) || named?.some((one) => one.trim() === name)) continue;
    const value = headers[name]!;
    if (typeof value === 'string') flat.push(name, value);
    else for (const one of value) flat.push(name, one);
  }
  return flat;
}

/**
 * The service's handler answers on the gateway's own request and response: the same method, URL,
 * headers (as the gateway left them for the service) and body stream, and every header and byte the
 * service writes goes straight to the client, streams included. A login body the gateway already
 * read for its limits is handed over as it came. A service that has not begun to answer within
 * `timeoutMs` gets the proxy's 502.
 */
function dispatchInProcess(handler: RequestListener, req: GatewayRequest, res: ServerResponse, timeoutMs: number) {
  const timer = setTimeout(() => {
    if (!res.headersSent) sendError(res, 502, 'upstream_unavailable', UNAVAILABLE);
  }, timeoutMs);
  res.once('close', () => clearTimeout(timer));
  const onUpstreamResponse = req.onUpstreamResponse;
  if (onUpstreamResponse) res.once('finish', () => onUpstreamResponse(res.statusCode));
  handler(req.bufferedBody ? replayed(req, req.bufferedBody) : req, res);
}

/** A request whose body was already read off the connection, with that body to be read again. */
function replayed(req: GatewayRequest, body: Buffer): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  copy.push(body);
  copy.push(null);
  copy.complete = true;
  return copy;
}
