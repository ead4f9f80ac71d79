import type { ServiceDefinition } from '@gpt/kit';
import { buildApp } from './app';
import type { ContentConfig } from './config';
import { migrations } from './data/migrations';
import type { ContentDatabase } from './data/schema';
import { startContentState } from './domain/content-state';
import { seedContent } from './domain/seed-articles';
import { contentConsumers } from './messaging/consumers';

export const contentService: ServiceDefinition<ContentConfig, ContentDatabase> = {
  name: 'content',
  migrations,
  consumers: contentConsumers,
  buildApp,
  async onStart(deps) {
    await seedContent(deps);
    return startContentState(deps);
  },
};
