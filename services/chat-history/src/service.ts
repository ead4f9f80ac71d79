import type { ServiceDefinition } from '@gpt/kit';
import { buildApp } from './app';
import type { ChatHistoryConfig } from './config';
import { migrations } from './data/migrations';
import type { ChatHistoryDatabase } from './data/schema';
import type { ChatHistoryDeps } from './deps';
import { botReads } from './domain/bot-reads';
import { modelsUseCases } from './domain/models';
import { modesUseCases } from './domain/modes';
import { settingsUseCases } from './domain/settings';
import { chatHistoryConsumers } from './messaging/consumers';

export const chatHistoryService: ServiceDefinition<ChatHistoryConfig, ChatHistoryDatabase, ChatHistoryDeps> = {
  name: 'chat-history',
  migrations,
  wire: (base) => ({ ...base, botReads: botReads(base) }),
  consumers: chatHistoryConsumers,
  buildApp,
  onStart: async (deps) => {
    await settingsUseCases(deps).seed();
    await modelsUseCases(deps).seed();
    await modesUseCases(deps.db, deps.logger).seed();
  },
  close: (deps) => deps.botReads.close(),
};
