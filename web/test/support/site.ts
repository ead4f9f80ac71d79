import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestStack, type TestStack } from '@gpt/deploy/testing';
import { startGateway, type RunningGateway } from '@gpt/gateway';
import { buildOpenApiDocument } from '@gpt/contracts/openapi';
import { createKeyValue, type Env } from '@gpt/kit';
import { freePort, TEST_SECRETS } from '@gpt/kit/testing';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

/**
 * The built web app behind the real gateway, on a port chosen before it starts so its SITE_URL (canonical
 * links, og:url) is its own address. Upstreams point at closed ports unless given, so pages that need
 * no API render and API calls fail as they would with a service down.
 */
export async function startSite(upstreams: Record<string, string> = {}): Promise<RunningGateway> {
  const closed = 'http://127.0.0.1:9';
  const port = await freePort();
  return startGateway({
    env: {
      ...TEST_SECRETS,
      SITE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'silent',
      WEB_DIR: webDir,
      AUTH_URL: closed,
      CONTENT_URL: closed,
      BILLING_URL: closed,
      CHAT_HISTORY_URL: closed,
      METRICS_URL: closed,
      BOT_URL: closed,
      ...upstreams,
    },
    port,
    kv: createKeyValue({}),
    openapi: buildOpenApiDocument,
  });
}

/**
 * The whole product on a port chosen before it starts, so the links it builds from SITE_URL
 * (the sandbox payment page, payment results, the bot's link URLs) lead back to it.
 */
export async function startSelfAddressedStack(env: Env = {}): Promise<TestStack> {
  const port = await freePort();
  return startTestStack({ PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, ...env });
}
