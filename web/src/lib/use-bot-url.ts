import type { TelegramBotInfo } from '@gpt/contracts';
import { useQuery } from '@tanstack/react-query';

import { getAppConfig } from '@/config/runtime-config';

import { api } from './api-client';

/**
 * The link that opens the Telegram bot: from the runtime config when the gateway names the bot,
 * else from the bot service (its username from Telegram). Null while unknown or when the bot is
 * not connected to Telegram: never a bare https://t.me/.
 */
export function useBotUrl(): string | null {
  const injected = getAppConfig().botUrl;
  const { data } = useQuery({
    queryKey: ['telegram-bot-info'],
    queryFn: ({ signal }) => api.get<TelegramBotInfo>('/api/telegram/info', { signal }),
    enabled: injected === null,
    staleTime: 5 * 60_000,
    retry: false,
  });
  return injected ?? data?.url ?? null;
}
