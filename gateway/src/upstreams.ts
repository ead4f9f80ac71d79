import { Agent, type ClientRequest, type ServerResponse } from 'node:http';
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

export interface Upstreams {
  /** Where each service lives. */
  readonly targets: Readonly<Record<ServiceName, string>>;
  /** Streams the request to the service and its answer back; never throws, never hangs. */
  proxy(service: ServiceName, req: GatewayRequest, res: ServerResponse): void;
  close(): void;
}

/**
 * One http-proxy-middleware per service, each with its own keep-alive agent. The default plugins
 * (a logger that formats a URL per request, an error page in text) are ejected for two small ones:
 * JSON errors and the few per-request touches the gateway needs.
 */
export function createUpstreams(options: { config: GatewayConfig; logger: Logger }): Upstreams {
  const { config, logger } = options;
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

/** A service that does not even accept the connection in time is treated as down. */
function limitConnectTime(proxyReq: ClientRequest, socket: Socket, ms: number): void {
  const timer = setTimeout(() => {
    proxyReq.destroy(Object.assign(new Error(`no connection in ${ms} ms`), { code: CONNECT_TIMEOUT }));
  }, ms);
  const clear = () => clearTimeout(timer);
  socket.once('connect', clear);
  proxyReq.once('close', clear);
}
