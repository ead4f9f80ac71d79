import type { Consumer, EventSchemas } from '@gpt/kit';
import { directoryRepository } from '../data/directory.repository';
import type { ChatHistoryDatabase } from '../data/schema';

/** A user was deleted: their messages stay in the history, shown as a deleted user's. */
export const userDeletedConsumer: Consumer<ChatHistoryDatabase, EventSchemas, 'user.deleted'> = {
  event: 'user.deleted',
  async handle(trx, event) {
    await directoryRepository(trx).markDeleted(event.data);
  },
};
