import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway, type RunningGateway } from '@gpt/gateway';
import { buildOpenApiDocument } from '@gpt/contracts/openapi';
import { createKeyValue } from '@gpt/kit';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

/**
 * The built web app behind the real gateway. Upstreams point at closed ports unless given, so
 * pages that need no API render and API calls fail as they would with a service down.
 */
export function startSite(upstreams: Record<string, string> = {}): Promise<RunningGateway> {
  const closed = 'http://127.0.0.1:9';
  return startGateway({
    env: {
      LOG_LEVEL: 'silent',
      WEB_DIR: webDir,
      AUTH_URL: closed,
      CONTENT_URL: closed,
      BILLING_URL: closed,
      CHAT_HISTORY_URL: closed,
      METRICS_URL: closed,
      ...upstreams,
    },
    port: 0,
    kv: createKeyValue({}),
    openapi: buildOpenApiDocument(),
  });
}
