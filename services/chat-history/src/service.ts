import type { ServiceDefinition } from '@gpt/kit';
import { buildApp } from './app';
import type { ChatHistoryConfig } from './config';
import { migrations } from './data/migrations';
import type { ChatHistoryDatabase } from './data/schema';
import { botReads } from './domain/bot-reads';
import { modelsUseCases } from './domain/models';
import { modesUseCases } from './domain/modes';
import { settingsUseCases } from './domain/settings';
import { chatHistoryConsumers } from './messaging/consumers';

export const chatHistoryService: ServiceDefinition<ChatHistoryConfig, ChatHistoryDatabase> = {
  name: 'chat-history',
  migrations,
  consumers: chatHistoryConsumers,
  buildApp,
  onStart: async (deps) => {
    await settingsUseCases(deps).seed();
    await modelsUseCases(deps).seed();
    await modesUseCases(deps.db, deps.logger).seed();
    const reads = botReads(deps);
    return () => reads.close();
  },
};
