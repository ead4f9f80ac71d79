import type { ServiceDefinition } from '@gpt/kit';
import { buildApp } from './app';
import type { ContentConfig } from './config';
import { migrations } from './data/migrations';
import type { ContentDatabase } from './data/schema';
import type { ContentDeps } from './deps';
import { contentState } from './domain/content-state';
import { seedContent } from './domain/seed-articles';
import { contentConsumers } from './messaging/consumers';

export const contentService: ServiceDefinition<ContentConfig, ContentDatabase, ContentDeps> = {
  name: 'content',
  migrations,
  wire: (base) => ({ ...base, ...contentState(base) }),
  consumers: contentConsumers,
  buildApp,
  async onStart(deps) {
    await seedContent(deps);
    // Its stop step stores the views left.
    return deps.views.start(deps.config.VIEW_FLUSH_MS);
  },
  close: (deps) => deps.cache.close(),
};
