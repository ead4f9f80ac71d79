import { TelegramBotInfo } from '@gpt/contracts';
import { createHttpApp, standardReadiness } from '@gpt/kit';
import type { BotDeps } from './deps';
import type { Telegram } from './telegram/telegram';

/** The bot's HTTP side: Telegram's webhook and what the site needs to know of the bot. */
export function buildApp(deps: BotDeps, telegram: Pick<Telegram, 'webhook'>) {
  return createHttpApp({
    name: 'bot',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.post('/api/telegram/webhook', telegram.webhook);
      app.get('/api/telegram/info', (_req, res) => {
        const username = deps.telegram.username();
        res.json(TelegramBotInfo.parse({ username, url: username ? `https://t.me/${username}` : null }));
      });
    },
  });
}
