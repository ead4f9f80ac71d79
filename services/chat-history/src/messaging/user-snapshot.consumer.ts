import type { UserRegisteredData, UserUpdatedData } from '@gpt/contracts';
import type { Consumer, EventSchemas } from '@gpt/kit';
import { directoryRepository } from '../data/directory.repository';
import type { ChatHistoryDatabase } from '../data/schema';

function applySnapshot(data: UserRegisteredData | UserUpdatedData) {
  return {
    user_id: data.user_id,
    telegram_id: data.telegram_id,
    email: data.email,
    username: data.username,
    telegram_username: data.telegram_username,
    first_name: data.first_name,
    last_name: data.last_name,
    version: data.version,
  };
}

/** A user appeared: the directory learns their names and Telegram id. */
export const userRegisteredConsumer: Consumer<ChatHistoryDatabase, EventSchemas, 'user.registered'> = {
  event: 'user.registered',
  async handle(trx, event) {
    await directoryRepository(trx).applySnapshot(applySnapshot(event.data));
  },
};

/** A user changed: the newer snapshot replaces the older one; a late older one is ignored. */
export const userUpdatedConsumer: Consumer<ChatHistoryDatabase, EventSchemas, 'user.updated'> = {
  event: 'user.updated',
  async handle(trx, event) {
    await directoryRepository(trx).applySnapshot(applySnapshot(event.data));
  },
};
