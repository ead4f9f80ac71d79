import type { ServiceDeps } from '@gpt/kit';
import type { ContentConfig } from './config';
import type { ContentDatabase } from './data/schema';
import type { ContentState } from './domain/content-state';

/** What content's routes, consumers and jobs need: the connections and its in-memory state, wired once in service.ts. */
export type ContentDeps = ServiceDeps<ContentConfig, ContentDatabase> & ContentState;
