import type { ServiceDeps } from '@gpt/kit';
import type { Api } from 'grammy';
import type { ServiceClients } from './clients/services';
import type { BotConfig } from './config';
import type { BotDatabase } from './data/schema';
import type { CatalogReader } from './domain/catalog';
import type { MessageLimiter } from './domain/message-limiter';
import type { ModelProvider } from './engine/provider';

/** The connection to Telegram: null api while Telegram is off (no token) or not yet reached. */
export interface TelegramLink {
  api(): Api | null;
  /** The bot's username (getMe, or TELEGRAM_BOT_USERNAME), null while unknown. */
  username(): string | null;
}

/** What the bot's handlers, consumers and routes need, wired once in service.ts. */
export interface BotDeps extends ServiceDeps<BotConfig, BotDatabase> {
  /** Our other services (auth, billing, chat-history) through their bot routes. */
  services: ServiceClients;
  provider: ModelProvider;
  catalog: CatalogReader;
  limiter: MessageLimiter;
  telegram: TelegramLink;
}
