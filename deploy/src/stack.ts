import { createServer } from 'node:net';
import { authService, loadAuthConfig } from '@gpt/auth';
import { billingService, loadBillingConfig } from '@gpt/billing';
import { createBotService, loadBotConfig } from '@gpt/bot';
import { chatHistoryService, loadChatHistoryConfig } from '@gpt/chat-history';
import { contentService, loadContentConfig } from '@gpt/content';
import { buildOpenApiDocument } from '@gpt/contracts/openapi';
import { loadGatewayConfig, SERVICES, startGateway, type RunningGateway, type ServiceName } from '@gpt/gateway';
import {
  createInProcessBroker,
  createKeyValue,
  runSteps,
  startService,
  type Env,
  type Logger,
  type RunningService,
  type ServiceConfig,
  type ServiceDefinition,
  type ServiceDeps,
} from '@gpt/kit';
import { loadMetricsConfig, metricsService } from '@gpt/metrics';

/** `count` different loopback ports free now (auth's and the bot's, which billing must know before they start). */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export interface Stack {
  gateway: RunningGateway;
  services: RunningService<ServiceConfig, unknown>[];
  close(): Promise<void>;
}

/**
 * The six services and the gateway in this process. The gateway hands each request to its service's
 * handler in process (no loopback connection); the services also listen on free loopback ports for
 * their calls to each other and the gateway's health checks. Without AMQP_URL they share an
 * in-process bus; without REDIS_URL, one in-memory store; without DATABASE_URL, one PGlite cluster.
 */
export async function startStack(env: Env, logger: Logger): Promise<Stack> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startStackOnce(env, logger);
    } catch (err) {
      // Auth's and the bot's ports are chosen before they listen (billing must know them first), so another
      // process may take one meanwhile: everything started is stopped, and the stack starts again on new ports.
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === PORT_ATTEMPTS) throw err;
      logger.warn({ err, attempt }, 'a port chosen for a service was taken before it listened; starting again');
    }
  }
}

const PORT_ATTEMPTS = 3;

async function startStackOnce(env: Env, logger: Logger): Promise<Stack> {
  // Held until every service has declared its queue, so no early event (the admin seed) finds nobody to deliver to.
  const broker = env.AMQP_URL ? undefined : createInProcessBroker({ held: true });
  const kv = createKeyValue({ url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX });
  // Every absolute URL a service builds starts with the gateway's SITE_URL (its default follows the gateway's PORT).
  // The bot's sandbox asks where the site is served (the gateway's HOST), not where the bot listens.
  const gatewayConfig = loadGatewayConfig(env);
  const serviceEnv: Env = {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_HOST: gatewayConfig.HOST,
    SITE_URL: gatewayConfig.SITE_URL,
  };

  // What has started, newest first: stopped so by close, or at once if a later start fails.
  const started: [string, () => Promise<void>][] = [['key-value', () => kv.close()]];
  const start = async <C extends ServiceConfig, DB, D extends ServiceDeps<C, DB>>(
    definition: ServiceDefinition<C, DB, D>,
    load: (env: Env) => C,
  ) => {
    const service = (await startService(definition, load(serviceEnv), {
      broker,
      kv,
      logger: logger.child({ service: definition.name }),
    })) as RunningService<ServiceConfig, unknown>;
    started.unshift([service.name, service.close]);
    return service;
  };
  try {
    // Billing first: auth calls it for the admin's deposits and tariff changes. Billing calls auth (a user
    // read through while their snapshot is on its way by event) and the bot (Stars refunds), which start
    // after it: their ports are chosen now.
    const [authPort, botPort] = await freePorts(2);
    const billing = await start(billingService, (env) =>
      loadBillingConfig({ ...env, AUTH_URL: `http://127.0.0.1:${authPort}`, BOT_URL: `http://127.0.0.1:${botPort}` }),
    );
    const auth = await start(authService, (env) =>
      loadAuthConfig({ ...env, PORT: String(authPort), BILLING_URL: billing.url }),
    );
    const content = await start(contentService, loadContentConfig);
    const chatHistory = await start(chatHistoryService, loadChatHistoryConfig);
    // Metrics merges the audit logs of auth, billing and chat-history into «Журнал действий».
    const metrics = await start(metricsService, (env) =>
      loadMetricsConfig({ ...env, AUTH_URL: auth.url, BILLING_URL: billing.url, CHAT_HISTORY_URL: chatHistory.url }),
    );
    const services = [auth, content, billing, chatHistory, metrics];
    // The bot calls the others' /api/bot/* routes, like any outside bot would.
    const running = (name: ServiceName) => services.find((service) => service.name === name)!;
    const upstream = (name: ServiceName) => running(name).url;
    services.push(
      await start(createBotService(), (env) =>
        loadBotConfig({
          ...env,
          PORT: String(botPort),
          AUTH_URL: upstream('auth'),
          BILLING_URL: upstream('billing'),
          CHAT_HISTORY_URL: upstream('chat-history'),
        }),
      ),
    );
    broker?.open();

    const gateway = await startGateway({
      env: {
        ...env,
        AUTH_URL: upstream('auth'),
        CONTENT_URL: upstream('content'),
        BILLING_URL: upstream('billing'),
        CHAT_HISTORY_URL: upstream('chat-history'),
        METRICS_URL: upstream('metrics'),
        BOT_URL: upstream('bot'),
      },
      kv,
      logger: logger.child({ service: 'gateway' }),
      openapi: buildOpenApiDocument,
      inProcess: Object.fromEntries(SERVICES.map((name) => [name, running(name).app])),
    });

    return {
      gateway,
      services,
      close: () =>
        // Callers before callees: the gateway, then the services in reverse order of start (the bot first,
        // billing after auth), then the store they share.
        runSteps(logger, [['gateway', gateway.close], ...started]),
    };
  } catch (err) {
    await runSteps(logger, started);
    throw err;
  }
}
