import { type AnswerCache, serviceAnswerCache, type ServiceDeps } from '@gpt/kit';
import type { ContentConfig } from '../config';
import { articlesRepository } from '../data/articles.repository';
import type { ContentDatabase } from '../data/schema';
import { viewCounter } from './view-counter';

/** What one running content service keeps in memory: its public answers and the views not stored yet. */
export interface ContentState {
  cache: AnswerCache;
  views: ReturnType<typeof viewCounter>;
}

/** Public answers kept at once; the oldest go first. */
const PUBLIC_ANSWERS_MAX = 2000;
/** The longest any public answer is kept, should a change's announcement to the other replicas be lost. */
const PUBLIC_ANSWER_MAX_AGE_MS = 30_000;

/** The state of one running service, made once by its wiring (service.ts) and shared by its routes, consumers and jobs. */
export function contentState(base: ServiceDeps<ContentConfig, ContentDatabase>): ContentState {
  return {
    cache: serviceAnswerCache(base, 'content', {
      maxEntries: PUBLIC_ANSWERS_MAX,
      maxAgeMs: PUBLIC_ANSWER_MAX_AGE_MS,
      nextChangeAt: () => articlesRepository(base.db).nextPublication(),
    }),
    views: viewCounter({
      db: base.db,
      kv: base.kv,
      logger: base.logger,
      windowSec: base.config.VIEW_WINDOW_SEC,
    }),
  };
}
