import type { Consumer, EventSchemas } from '@gpt/kit';
import type { ContentDeps } from '../deps';
import type { ContentDatabase } from '../data/schema';
import { authorsConsumers } from './authors.consumer';

/** What content consumes: auth's users, for the author names of articles. */
export const contentConsumers = (deps: ContentDeps): Consumer<ContentDatabase, EventSchemas>[] => [
  ...authorsConsumers(deps),
];
