import { queryOptions, useQuery } from '@tanstack/react-query';

import { getAppConfig } from '@/config/runtime-config';

import { callRoute } from './api-client';

/** GET /api/telegram/info: the bot's name, its link, and whether it runs on the local sandbox. */
export const telegramBotInfoQuery = queryOptions({
  queryKey: ['telegram-bot-info'],
  queryFn: ({ signal }) => callRoute('getTelegramInfo', { signal }),
  staleTime: 5 * 60_000,
  retry: false,
});

/**
 * The link that opens the Telegram bot: from the runtime config when the gateway names the bot,
 * else from the bot service (its username from Telegram). Null while unknown or when the bot is
 * not connected to Telegram: never a bare https://t.me/. On the sandbox it is the site's /telegram-sandbox.
 */
export function useBotUrl(): string | null {
  const injected = getAppConfig().botUrl;
  const { data } = useQuery({
    ...telegramBotInfoQuery,
    enabled: injected === null,
  });
  return injected ?? data?.url ?? null;
}
