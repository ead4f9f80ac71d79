import type { Consumer, EventSchemas } from '@gpt/kit';
import type { ChatHistoryDatabase } from '../data/schema';
import { accountsLinkedConsumer } from './accounts-linked.consumer';
import { userDeletedConsumer } from './user-deleted.consumer';
import { userRegisteredConsumer, userUpdatedConsumer } from './user-snapshot.consumer';

/** What chat-history consumes: auth's users for its directory, and linked accounts whose messages move. */
export const chatHistoryConsumers = (): Consumer<ChatHistoryDatabase, EventSchemas>[] => [
  userRegisteredConsumer,
  userUpdatedConsumer,
  userDeletedConsumer,
  accountsLinkedConsumer,
];
