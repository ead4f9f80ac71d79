import { z } from 'zod';

/**
 * Bot service: the Telegram bot. It calls the other services' `/api/bot/*` routes like any outside
 * bot would; its own routes are Telegram's webhook and what the site shows of the bot.
 */

/** `GET /api/telegram/info`: the bot's username (getMe, or TELEGRAM_BOT_USERNAME); null while unknown. */
export const TelegramBotInfo = z
  .object({
    username: z.string().nullable(),
    url: z.url().nullable().meta({ description: 'https://t.me/<username>, for the site’s «Открыть бота»' }),
  })
  .meta({ id: 'TelegramBotInfo' });
export type TelegramBotInfo = z.infer<typeof TelegramBotInfo>;

/** `POST /api/telegram/webhook`: an Update of the Telegram Bot API (checked by grammY; only update_id here). */
export const TelegramUpdate = z.looseObject({ update_id: z.int() }).meta({ id: 'TelegramUpdate' });
export type TelegramUpdate = z.infer<typeof TelegramUpdate>;
