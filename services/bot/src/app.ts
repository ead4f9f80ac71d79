import { TelegramBotInfo } from '@gpt/contracts';
import { createHttpApp, respond, standardReadiness } from '@gpt/kit';
import type { BotDeps } from './deps';
import type { SandboxBotApi } from './sandbox/bot-api';
import { sandboxRouter } from './sandbox/chat.routes';
import { SANDBOX_PATH } from './sandbox/telegram-sandbox';
import type { Telegram } from './telegram/telegram';

/**
 * The bot's HTTP side: Telegram's webhook, what the site needs to know of the bot, and the
 * Telegram sandbox when the bot runs on it (404 there otherwise).
 */
export function buildApp(deps: BotDeps, telegram: Pick<Telegram, 'webhook'>, sandbox: SandboxBotApi | null = null) {
  return createHttpApp({
    name: 'bot',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.post('/api/telegram/webhook', telegram.webhook);
      app.get('/api/telegram/info', (_req, res) => {
        const username = deps.telegram.username();
        const url = sandbox ? `${deps.config.SITE_URL}/telegram-sandbox` : username ? `https://t.me/${username}` : null;
        respond(res, TelegramBotInfo, { username, url, sandbox: sandbox !== null });
      });
      if (sandbox) app.use(SANDBOX_PATH, sandboxRouter(sandbox, deps));
    },
  });
}
