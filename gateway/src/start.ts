import type { AddressInfo } from 'node:net';
import { createKeyValue, createLogger, type Env, type KeyValue, type Logger } from '@gpt/kit';
import { buildGateway, type Gateway } from './app';
import { type GatewayConfig, loadGatewayConfig } from './config';
import { withTimeout } from './timeout';
import type { InProcessServices } from './upstreams';

const STORE_WAIT_MS = 3000;

export interface StartGatewayOptions {
  /** The parsed config; when absent it is read from `env` (default: the process environment). */
  config?: GatewayConfig;
  env?: Env;
  /** Overrides config.PORT; 0 picks a free port. */
  port?: number;
  /** Overrides config.HOST. */
  host?: string;
  logger?: Logger;
  /** A store shared with the services (the embedded default passes its in-memory one); else one from REDIS_URL, closed on close(). */
  kv?: KeyValue;
  /** Builds the OpenAPI document, on the first request for it. */
  openapi: () => object;
  /** Services running in this process: the gateway hands their requests to these handlers. */
  inProcess?: InProcessServices;
}

export interface RunningGateway {
  url: string;
  port: number;
  logger: Logger;
  gateway: Gateway;
  close(): Promise<void>;
}

/** Builds the gateway and listens; used by main.ts and by the launcher that runs everything in one process. */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const config = options.config ?? loadGatewayConfig(options.env);
  const logger =
    options.logger ?? createLogger({ name: 'gateway', level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const ownKv = options.kv ? undefined : createKeyValue({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX });
  const kv = options.kv ?? ownKv!;
  // Counting from the first request in Redis, not in the per-process fallback used while it connects.
  await withTimeout(kv.ping(), STORE_WAIT_MS).catch((err: unknown) => {
    logger.warn({ err }, 'key-value store not reachable yet; limits count per process until it is');
  });
  const gateway = buildGateway({ config, logger, kv, openapi: options.openapi, inProcess: options.inProcess });

  const host = options.host ?? config.HOST;
  await new Promise<void>((resolve, reject) => {
    gateway.server.once('error', reject);
    gateway.server.listen(options.port ?? config.PORT, host, () => {
      gateway.server.off('error', reject);
      resolve();
    });
  });
  const { port } = gateway.server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url }, 'gateway listening');
  const site = url.replace('127.0.0.1', 'localhost');
  logger.info({ url: site }, `The site is at ${site} (API reference: ${site}/api/docs)`);

  return {
    url,
    port,
    logger,
    gateway,
    async close() {
      await gateway.close();
      await ownKv?.close();
    },
  };
}
