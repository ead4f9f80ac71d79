import type { Consumer, EventSchemas } from '@gpt/kit';
import type { AuthDatabase } from '../data/schema';
import { creditsChangedConsumer } from './credits-changed.consumer';
import { messageRecordedConsumer } from './message-recorded.consumer';

/** What auth consumes: its projection of balances and message usage. */
export const authConsumers = (): Consumer<AuthDatabase, EventSchemas>[] =>
  [creditsChangedConsumer, messageRecordedConsumer] as Consumer<AuthDatabase, EventSchemas>[];
