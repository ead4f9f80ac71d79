import type { Consumer, EventSchemas } from '@gpt/kit';
import type { AuthDatabase } from '../data/schema';
import { usersRepository } from '../data/users.repository';

/** Each recorded message counts once (the inbox sees to that) and adds its dollar cost. */
export const messageRecordedConsumer: Consumer<AuthDatabase, EventSchemas, 'message.recorded'> = {
  event: 'message.recorded',
  async handle(trx, event) {
    await usersRepository(trx).addUsage(event.data.user_id, { messages: 1, spent: event.data.total_cost });
  },
};
