import { randomBytes, randomInt } from 'node:crypto';
import type { BotConfig } from '../config';
import { createSandboxBotApi, type SandboxBotApi } from './bot-api';

/** Where the bot service serves its sandbox: the Bot API under it, and the user's side under `/chat`. */
export const SANDBOX_PATH = '/api/telegram/sandbox';

/**
 * The sandbox Bot API when the bot has no token outside production (and TELEGRAM_SANDBOX is not
 * false): a fresh random token each start, known only to this process; null otherwise.
 */
export function telegramSandbox(config: BotConfig): SandboxBotApi | null {
  if (config.TELEGRAM_BOT_TOKEN || config.NODE_ENV === 'production' || !config.TELEGRAM_SANDBOX) return null;
  return createSandboxBotApi({
    token: `${randomInt(1_000_000_000, 9_000_000_000)}:${randomBytes(27).toString('base64url')}`,
    name: { first_name: 'GPT-бот (песочница)', username: 'sandbox_gpt_bot' },
  });
}
