import express, { type ErrorRequestHandler, type Express } from 'express';
import { errorBody, notFound } from '../errors';
import type { Logger } from '../logger';
import { createMetrics } from './metrics';
import { requestIdFrom } from './request-id';
import { requestLog } from './request-log';
import { badPath, isWellFormedPath, parseJsonBody } from './request-input';
import { withTimeout } from '../timeout';

export type ReadinessChecks = Record<string, () => Promise<void>>;

export interface HttpAppOptions {
  name: string;
  logger: Logger;
  readiness?: ReadinessChecks;
  routes: (app: Express) => void;
}

const READINESS_TIMEOUT_MS = 1000;

/** The shared HTTP shell: request ids, logs, JSON limits, health, metrics, 404 and the one error mapping. */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const metrics = createMetrics(options.name);

  app.use((req, res, next) => {
    const id = requestIdFrom(req.headers['x-request-id']);
    req.headers['x-request-id'] = id;
    res.setHeader('X-Request-Id', id);
    next();
  });
  app.use(requestLog(app, options.logger));
  app.use(metrics.measure);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = await runReadiness(options.readiness ?? {});
    const ok = Object.values(checks).every((state) => state === 'ok');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', checks });
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  // Hostile input is refused before any route runs: a path with broken percent-escapes, a body that is
  // not UTF-8 JSON or nests too deep (the same reading as the gateway's).
  app.use((req, _res, next) => next(isWellFormedPath(req.path) ? undefined : badPath()));
  app.use(express.raw({ type: 'application/json', limit: '1mb' }), (req, _res, next) => {
    if (Buffer.isBuffer(req.body)) req.body = parseJsonBody(req.body, req.headers['content-type']);
    next();
  });
  options.routes(app);

  app.use((_req, _res, next) => next(notFound()));
  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    const mapped = errorBody(err);
    if (mapped.status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code: mapped.body.code }, mapped.body.error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res
      .status(mapped.status)
      .set(mapped.headers ?? {})
      .json(mapped.body);
  };
  app.use(onError);
  return app;
}

async function runReadiness(checks: ReadinessChecks): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await withTimeout(check(), READINESS_TIMEOUT_MS);
        return [name, 'ok'] as const;
      } catch (err) {
        return [name, err instanceof Error ? err.message : 'unavailable'] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}
