import { answered, contractRouter, createHttpApp, notServed, routeHandlers, standardReadiness } from '@gpt/kit';
import type { Update } from 'grammy/types';
import type { BotDeps } from './deps';
import { adminBroadcastsRoutes } from './http/admin-broadcasts.routes';
import { chatRoutes } from './http/chat.routes';
import { internalRouter } from './http/internal.routes';
import type { SandboxBotApi } from '@gpt/telegram-sandbox';
import { sandboxBotApi, sandboxChatRoutes } from './sandbox/chat.routes';
import { SANDBOX_PATH } from '@gpt/contracts';
import { botLink } from './telegram/bot-link';
import type { Telegram } from './telegram/telegram';

/** Without the sandbox its routes are not served (404 like any unknown path). */
const sandboxOff = routeHandlers('bot', {
  postTelegramSandboxSession: notServed,
  getTelegramSandboxChat: notServed,
  postTelegramSandboxChatMessages: notServed,
  postTelegramSandboxChatUploads: notServed,
  postTelegramSandboxChatButtons: notServed,
  postTelegramSandboxChatPayments: notServed,
  getTelegramSandboxChatFilesByFileId: notServed,
});

/**
 * The bot's HTTP side: Telegram's webhook, what the site needs to know of the bot, the Telegram
 * sandbox when the bot runs on it (404 there otherwise) and billing's call for Stars refunds.
 */
export function buildApp(
  deps: BotDeps,
  telegram: Pick<Telegram, 'webhookSecret' | 'acceptUpdate'>,
  sandbox: SandboxBotApi | null = null,
) {
  return createHttpApp({
    name: 'bot',
    logger: deps.logger,
    readiness: standardReadiness(deps),
    routes: (app) => {
      app.use(
        contractRouter(
          'bot',
          { jwtSecret: deps.config.JWT_SECRET, kv: deps.kv },
          {
            postTelegramWebhook: {
              use: [telegram.webhookSecret],
              handle: async ({ body, res }) => {
                await telegram.acceptUpdate(body as Update);
                res.status(200).json({ ok: true });
                return answered;
              },
            },
            getTelegramInfo: () => {
              const username = deps.telegram.username();
              return { username, url: botLink(deps, username), sandbox: sandbox !== null };
            },
            ...(sandbox ? sandboxChatRoutes(sandbox, deps) : sandboxOff),
            ...adminBroadcastsRoutes(deps),
            ...chatRoutes(deps),
          },
        ),
      );
      if (sandbox) app.use(SANDBOX_PATH, sandboxBotApi(sandbox));
      app.use(internalRouter(deps));
    },
  });
}
