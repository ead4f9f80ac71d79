import { type AnswerCache, serviceAnswerCache } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import { articlesRepository } from '../data/articles.repository';
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

const states = new WeakMap<ContentDeps, ContentState>();

/**
 * The state of the service these deps belong to: its routes, its consumers and its start-up job
 * all get the same deps object (kit's startService), so they share one cache and one view counter.
 */
export function contentState(deps: ContentDeps): ContentState {
  let state = states.get(deps);
  if (!state) {
    state = {
      cache: serviceAnswerCache(deps, 'content', {
        maxEntries: PUBLIC_ANSWERS_MAX,
        maxAgeMs: PUBLIC_ANSWER_MAX_AGE_MS,
        nextChangeAt: () => articlesRepository(deps.db).nextPublication(),
      }),
      views: viewCounter({
        db: deps.db,
        kv: deps.kv,
        logger: deps.logger,
        windowSec: deps.config.VIEW_WINDOW_SEC,
      }),
    };
    states.set(deps, state);
  }
  return state;
}

/** Starts flushing views; the stop step stores the views left and leaves the change channel. */
export function startContentState(deps: ContentDeps): () => Promise<void> {
  const { cache, views } = contentState(deps);
  const stopViews = views.start(deps.config.VIEW_FLUSH_MS);
  return async () => {
    await stopViews();
    await cache.close();
  };
}
