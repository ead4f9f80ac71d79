import { loadConfig, serviceConfigSchema, type Env } from '@gpt/kit';
import type { z } from 'zod';

export const ChatHistoryConfig = serviceConfigSchema('chat-history', 8084);
export type ChatHistoryConfig = z.infer<typeof ChatHistoryConfig>;

export const loadChatHistoryConfig = (env?: Env): ChatHistoryConfig => loadConfig(ChatHistoryConfig, env);
