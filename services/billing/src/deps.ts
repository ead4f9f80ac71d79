import type { ServiceDeps } from '@gpt/kit';
import type { BillingConfig } from './config';
import type { BillingDatabase } from './data/schema';

export type BillingDeps = ServiceDeps<BillingConfig, BillingDatabase>;
