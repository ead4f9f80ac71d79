import type { ServiceDeps } from '@gpt/kit';
import type { ContentConfig } from './config';
import type { ContentDatabase } from './data/schema';

export type ContentDeps = ServiceDeps<ContentConfig, ContentDatabase>;
