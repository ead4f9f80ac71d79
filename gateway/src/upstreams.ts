import { Agent, type ClientRequest, IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '@gpt/kit';
import { createProxyMiddleware, definePlugin, type RequestHandler } from 'http-proxy-middleware';
import type { GatewayConfig } from './config';
import type { GatewayRequest } from './gateway-request';
import { sendError } from './respond';
import { SERVICES, type ServiceName } from './route-table';

const UNAVAILABLE = 'Сервис временно недоступен';
const CONNECT_TIMEOUT = 'UPSTREAM_CONNECT_TIMEOUT';
/** Errors that mean the service could not be reached at all (→ 503); anything else is a bad answer (→ 502). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', CONNECT_TIMEOUT]);
/**
 * Hop-by-hop headers (RFC 9110, 7.6.1) the client may send: its terms with the gateway, not the
 * service's (a client's `Connection: close` would otherwise close the kept connection to the service).
 * Transfer-Encoding stays: it frames the body node:http's client sends on.
 */
const HOP_BY_HOP = ['keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade'];
/** Headers a client's Connection header may name that still say where the request goes and how its body ends. */
const FRAMING = new Set(['host', 'content-length', 'transfer-encoding']);

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
  close(): void;
}

/**
 * One http-proxy-middleware per service, each with its own keep-alive agent. The default plugins
 * (a logger that formats a URL per request, an error page in text) are ejected for two small ones:
 * JSON errors and the few per-request touches the gateway needs. A service given in `inProcess` is
 * not proxied: its handler answers on the gateway's own response.
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
  const agents: Agent[] = [];

  const plugin = definePlugin<GatewayRequest, ServerResponse>((proxyServer) => {
    proxyServer.on('proxyReq', (proxyReq, req) => {
      if (proxyReq.socket?.connecting) limitConnectTime(proxyReq, proxyReq.socket, config.UPSTREAM_CONNECT_TIMEOUT_MS);
      // `keep-alive` alone is what node:http's client says on the kept connection anyway.
      const connection = req.headers.connection;
      if (connection !== undefined && connection !== 'keep-alive') dropConnectionHeaders(proxyReq, req);
      for (const name of HOP_BY_HOP) if (req.headers[name] !== undefined) proxyReq.removeHeader(name);
      if (req.bufferedBody) proxyReq.write(req.bufferedBody);
    });
    proxyServer.on('proxyRes', (proxyRes, req) => {
      // Services are express apps; the gateway is the only face the outside sees. Their keep-alive
      // terms are between them and the gateway, not the client.
      delete proxyRes.headers['x-powered-by'];
      delete proxyRes.headers['keep-alive'];
      req.onUpstreamResponse?.(proxyRes.statusCode ?? 0);
    });
    proxyServer.on('error', (err, req, res) => {
      const code = (err as NodeJS.ErrnoException).code ?? 'UNKNOWN';
      logger.warn({ reqId: req?.requestId, service: req?.service, code, err: err.message }, 'upstream failed');
      if (!res || !('writeHead' in res)) return;
      if (res.headersSent) res.destroy();
      else sendError(res, UNREACHABLE.has(code) ? 503 : 502, 'upstream_unavailable', UNAVAILABLE);
    });
    proxyServer.on('econnreset', (_err, req) => {
      // The client went away while the upstream was still answering; nothing left to tell anyone.
      logger.debug({ reqId: req.requestId, service: req.service }, 'client aborted');
    });
  });

  const middlewares = new Map<ServiceName, RequestHandler<GatewayRequest, ServerResponse>>();
  for (const service of SERVICES) {
    const agent = new Agent({
      keepAlive: true,
      maxSockets: config.UPSTREAM_MAX_SOCKETS,
      maxFreeSockets: config.UPSTREAM_MAX_SOCKETS,
      // Reuse the warmest sockets; idle ones at the bottom of the stack time out on their own.
      scheduling: 'lifo',
    });
    agents.push(agent);
    middlewares.set(
      service,
      createProxyMiddleware<GatewayRequest, ServerResponse>({
        // A URL object, not a string: httpxy would otherwise parse the string on every request.
        target: new URL(targets[service]),
        agent,
        proxyTimeout: config.UPSTREAM_TIMEOUT_MS,
        xfwd: false,
        ejectPlugins: true,
        plugins: [plugin],
      }),
    );
  }

  return {
    targets,
    proxy(service, req, res) {
      const handler = inProcess[service];
      if (handler) {
        dispatchInProcess(handler, req, res, config.UPSTREAM_TIMEOUT_MS);
        return;
      }
      const middleware = middlewares.get(service)!;
      void middleware(req, res, (err?: unknown) => {
        // http-proxy-middleware also hands failures to `next`; answer only if nobody did.
        if (err && !res.headersSent) sendError(res, 502, 'upstream_unavailable', UNAVAILABLE);
      });
    },
    close() {
      for (const agent of agents) agent.destroy();
    },
  };
}

/**
 * The client's Connection header and the headers it names stay with the client. A request with a
 * Transfer-Encoding keeps the `Connection: close` httpxy gives it (a chunked body is never followed
 * by another request on the service's connection).
 */
function dropConnectionHeaders(proxyReq: ClientRequest, req: GatewayRequest): void {
  for (const name of req.headers.connection!.toLowerCase().split(',')) {
    const named = name.trim();
    if (named && !FRAMING.has(named)) proxyReq.removeHeader(named);
  }
  if (req.headers['transfer-encoding'] === undefined) proxyReq.removeHeader('connection');
}

/** A service that does not even accept the connection in time is treated as down. */
function limitConnectTime(proxyReq: ClientRequest, socket: Socket, ms: number): void {
  const timer = setTimeout(() => {
    proxyReq.destroy(Object.assign(new Error(`no connection in ${ms} ms`), { code: CONNECT_TIMEOUT }));
  }, ms);
  const clear = () => clearTimeout(timer);
  socket.once('connect', clear);
  proxyReq.once('close', clear);
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
