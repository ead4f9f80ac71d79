import { randomBytes, randomInt } from 'node:crypto';
import { isLocalHost } from '@gpt/kit';
import type { BotConfig } from '../config';
import { createSandboxBotApi, type SandboxBotApi } from '@gpt/telegram-sandbox';

/** Whether the sandbox runs, and the reason, said once at start. */
export function sandboxDecision(config: BotConfig): { on: boolean; reason: string } {
  if (config.TELEGRAM_BOT_TOKEN) return { on: false, reason: 'TELEGRAM_BOT_TOKEN is set: the bot talks to Telegram' };
  if (config.NODE_ENV === 'production') return { on: false, reason: 'never in production' };
  if (config.TELEGRAM_SANDBOX === false) return { on: false, reason: 'TELEGRAM_SANDBOX=false' };
  if (!isLocalHost(new URL(config.SITE_URL).hostname))
    return { on: false, reason: `SITE_URL ${config.SITE_URL} is public: anyone could play the sandbox's users` };
  if (config.TELEGRAM_SANDBOX === true) return { on: true, reason: 'TELEGRAM_SANDBOX=true' };
  const host = config.GATEWAY_HOST ?? config.HOST;
  if (!isLocalHost(host))
    return { on: false, reason: `the site listens on ${host}, beyond this machine (TELEGRAM_SANDBOX=true allows it)` };
  return { on: true, reason: `the site listens on ${host}, this machine only` };
}

/**
 * The sandbox Bot API when `sandboxDecision` allows it: a fresh random token each start, known only
 * to this process, and the memory bounds of the configuration; null otherwise.
 */
export function telegramSandbox(config: BotConfig): SandboxBotApi | null {
  if (!sandboxDecision(config).on) return null;
  return createSandboxBotApi({
    token: `${randomInt(1_000_000_000, 9_000_000_000)}:${randomBytes(27).toString('base64url')}`,
    name: { first_name: 'GPT-бот (песочница)', username: 'sandbox_gpt_bot' },
    limits: {
      maxFileBytes: config.TELEGRAM_SANDBOX_MAX_FILE_BYTES,
      maxChatMessages: config.TELEGRAM_SANDBOX_MAX_CHAT_MESSAGES,
    },
  });
}
