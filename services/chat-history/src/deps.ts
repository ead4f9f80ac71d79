import type { AnswerCache, ServiceDeps } from '@gpt/kit';
import type { ChatHistoryConfig } from './config';
import type { ChatHistoryDatabase } from './data/schema';

/** What chat-history's routes, consumers and seeds need: the connections and what service.ts wires of them once. */
export interface ChatHistoryDeps extends ServiceDeps<ChatHistoryConfig, ChatHistoryDatabase> {
  /** The kept answers of the bot's and the site's reads (domain/bot-reads.ts). */
  botReads: AnswerCache;
}
