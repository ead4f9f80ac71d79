import type { Consumer, EventSchemas } from '@gpt/kit';
import { directoryRepository } from '../data/directory.repository';
import type { ChatHistoryDatabase } from '../data/schema';

/** A Telegram account joined a web account: the merged account's messages move to the survivor. */
export const accountsLinkedConsumer: Consumer<ChatHistoryDatabase, EventSchemas, 'accounts.linked'> = {
  event: 'accounts.linked',
  async handle(trx, event) {
    await directoryRepository(trx).link({
      userId: event.data.user_id,
      mergedUserId: event.data.merged_user_id,
      telegramId: event.data.telegram_id,
    });
  },
};
