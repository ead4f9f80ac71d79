import { loadAuthConfig } from '@gpt/auth';
import { loadBillingConfig } from '@gpt/billing';
import { loadBotConfig } from '@gpt/bot';
import { loadChatHistoryConfig } from '@gpt/chat-history';
import { loadContentConfig } from '@gpt/content';
import { loadGatewayConfig } from '@gpt/gateway';
import { ConfigError, type Env } from '@gpt/kit';
import { loadMetricsConfig } from '@gpt/metrics';

/** Each process's configuration loader, by the process's name in docker-compose.yml and deploy/k8s. */
export const LOADERS: Record<string, (env: Env) => unknown> = {
  gateway: loadGatewayConfig,
  auth: loadAuthConfig,
  content: loadContentConfig,
  billing: loadBillingConfig,
  'chat-history': loadChatHistoryConfig,
  metrics: loadMetricsConfig,
  bot: loadBotConfig,
};

/** What the process's configuration refuses in `env`: one line per problem, none when it loads. */
export function configProblems(name: string, env: Env): string[] {
  try {
    LOADERS[name]!(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}
