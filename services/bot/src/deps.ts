import type { AttemptLimiter, ServiceDeps } from '@gpt/kit';
import type { Api } from 'grammy';
import type { ServiceClients } from './clients/services';
import type { BotConfig } from './config';
import type { BotDatabase } from './data/schema';
import type { AnswerJobs } from './domain/answers';
import type { CatalogReader } from './domain/catalog';
import type { Generations } from './domain/generations';
import type { MessageLimiter } from './domain/message-limiter';
import type { DocumentReader } from './documents/reader';
import type { ModelProvider } from './engine/provider';

/** The connection to Telegram: null api while Telegram is off (no token) or not yet reached. */
export interface TelegramLink {
  api(): Api | null;
  /** The bot's username (getMe, or TELEGRAM_BOT_USERNAME), null while unknown. */
  username(): string | null;
  /** The Bot API's address (TELEGRAM_API_URL, or the embedded sandbox's), for its files. */
  apiUrl(): string;
}

/** What the bot's handlers, consumers and routes need, wired once in service.ts. */
export interface BotDeps extends ServiceDeps<BotConfig, BotDatabase> {
  /** Our other services (auth, billing, chat-history) through their bot routes. */
  services: ServiceClients;
  provider: ModelProvider;
  catalog: CatalogReader;
  limiter: MessageLimiter;
  documents: DocumentReader;
  /** Answers in progress, resolved as interrupted when their process stops or dies. */
  generations: Generations;
  /** Answers running in this process, read by the web chat's streams and stopped by «Остановить». */
  answers: AnswerJobs;
  /** Promo code attempts per Telegram user (`BOT_PROMO_ATTEMPTS` per 10 minutes): guessing is slowed down. */
  promoLimiter: AttemptLimiter;
  telegram: TelegramLink;
  /** The site's /telegram-sandbox page when the bot runs on the sandbox: its links open there, not t.me. */
  sandboxPage: string | null;
}
