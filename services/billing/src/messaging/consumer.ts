import type { Consumer, EventSchemas } from '@gpt/kit';
import type { BillingDatabase } from '../data/schema';

/** A billing consumer of event type `K`. */
export type BillingConsumer<K extends keyof EventSchemas & string> = Consumer<BillingDatabase, EventSchemas, K>;
