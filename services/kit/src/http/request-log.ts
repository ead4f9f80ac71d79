import { performance } from 'node:perf_hooks';
import type { Express, Request, RequestHandler } from 'express';
import type { Logger } from '../logger';

declare module 'express-serve-static-core' {
  interface Request {
    /** The service's logger naming this request (its id, method and URL); made when first used. */
    log: Logger;
  }
}

/** Probes and scrapes, asked every few seconds, are not worth a line each. */
const UNLOGGED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The request log of a service: one line per request once its connection is done — `request
 * completed` (or `request aborted` when the client left first) with the request's id, method and
 * URL, the status and the time it took, at error level for a 5xx and at info otherwise — and
 * `req.log` for what a route logs about its request. The gateway's access log already holds each
 * request with its client; the service's line names it by its id. Measured in bench/reads.mjs,
 * pino-http's child logger per request (the request and its headers serialized and redacted
 * whether anything is logged or not) was 10–15 % of a service's CPU on a kept answer; here the
 * child is made only when a route logs, and the line is skipped when its level is off.
 */
export function requestLog(app: Express, logger: Logger): RequestHandler {
  const summary = (req: Request) => ({ id: req.headers['x-request-id'], method: req.method, url: req.originalUrl });
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request) {
      const log = logger.child({ req: summary(this) });
      Object.defineProperty(this, 'log', { value: log, configurable: true, writable: true });
      return log;
    },
  });
  return (req, res, next) => {
    if (UNLOGGED.has(req.url)) {
      next();
      return;
    }
    const startedAt = performance.now();
    res.once('close', () => {
      const level = res.statusCode >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const responseTime = Math.round(performance.now() - startedAt);
      const line = { req: summary(req), res: { statusCode: res.statusCode }, responseTime };
      logger[level](line, res.writableFinished ? 'request completed' : 'request aborted');
    });
    next();
  };
}
