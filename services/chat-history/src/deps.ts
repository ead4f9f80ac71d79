import type { ServiceDeps } from '@gpt/kit';
import type { ChatHistoryConfig } from './config';
import type { ChatHistoryDatabase } from './data/schema';

export type ChatHistoryDeps = ServiceDeps<ChatHistoryConfig, ChatHistoryDatabase>;
