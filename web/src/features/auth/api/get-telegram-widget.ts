import { queryOptions, useQuery } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

/** GET /api/auth/telegram/widget: the bot's username for the Telegram Login Widget, null where there is no real bot. */
export const telegramWidgetQuery = queryOptions({
  queryKey: ['auth', 'telegram-widget'],
  queryFn: () => callRoute('getAuthTelegramWidget'),
  staleTime: Infinity,
});

export const useTelegramWidget = () => useQuery(telegramWidgetQuery);
