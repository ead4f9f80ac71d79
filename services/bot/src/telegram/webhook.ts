import { timingSafeEqual } from 'node:crypto';
import { unauthorized, type Logger } from '@gpt/kit';
import type { RequestHandler } from 'express';
import type { Bot } from 'grammy';
import type { Update } from 'grammy/types';
import type { BotConfig } from '../config';
import type { BotDeps } from '../deps';
import type { BotContext, TelegramSignal, UpdateType } from './context';
import { webhookQueue } from './webhook-queue';

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The webhook's check of Telegram's secret header, before the update is read. */
export function webhookSecret(config: Pick<BotConfig, 'TELEGRAM_WEBHOOK_SECRET'>): RequestHandler {
  return (req, _res, next) => {
    const secret = config.TELEGRAM_WEBHOOK_SECRET;
    const given = req.header('x-telegram-bot-api-secret-token') ?? '';
    next(
      secret && sameSecret(given, secret)
        ? undefined
        : unauthorized('Неверный секрет вебхука', 'invalid_webhook_secret'),
    );
  };
}

/**
 * Webhook mode: Telegram is told the URL, the secret and the update types; each update is kept
 * (./webhook-queue.ts) before Telegram hears 200 and handled after, so it is never lost and
 * Telegram never waits for an answer.
 */
export function webhookMode(
  deps: Pick<BotDeps, 'db' | 'kv' | 'generations'>,
  bot: Bot<BotContext>,
  config: Pick<BotConfig, 'TELEGRAM_WEBHOOK_URL' | 'TELEGRAM_WEBHOOK_SECRET'>,
  logger: Logger,
) {
  const queue = webhookQueue({
    db: deps.db,
    kv: deps.kv,
    logger,
    owner: deps.generations.owner,
    handle: (update: Update) => bot.handleUpdate(update),
  });
  return {
    async connect(url: string, allowedUpdates: readonly UpdateType[], signal?: TelegramSignal) {
      await bot.api.setWebhook(
        url,
        { secret_token: config.TELEGRAM_WEBHOOK_SECRET, allowed_updates: allowedUpdates },
        signal,
      );
      await queue.forgetOld();
    },
    accept: (update: Update) => queue.accept(update),
    size: () => queue.size(),
  };
}
