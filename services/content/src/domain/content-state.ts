import type { ContentDeps } from '../deps';
import { articlesRepository } from '../data/articles.repository';
import { publicCache } from './public-cache';
import { viewCounter } from './view-counter';

/** What one running content service keeps in memory: its public answers and the views not stored yet. */
export interface ContentState {
  cache: ReturnType<typeof publicCache>;
  views: ReturnType<typeof viewCounter>;
}

const states = new WeakMap<ContentDeps, ContentState>();

/**
 * The state of the service these deps belong to: its routes, its consumers and its start-up job
 * all get the same deps object (kit's startService), so they share one cache and one view counter.
 */
export function contentState(deps: ContentDeps): ContentState {
  let state = states.get(deps);
  if (!state) {
    state = {
      cache: publicCache({
        kv: deps.kv,
        channel: `${deps.config.REDIS_KEY_PREFIX}content:changed`,
        logger: deps.logger,
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
