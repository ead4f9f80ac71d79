import type { Consumer, EventSchemas } from '@gpt/kit';
import type { AuthDatabase } from '../data/schema';
import { usersRepository } from '../data/users.repository';

/** Billing's balance snapshot feeds the profile and the admin list; older versions are ignored. */
export const creditsChangedConsumer: Consumer<AuthDatabase, EventSchemas, 'credits.changed'> = {
  event: 'credits.changed',
  async handle(event, trx) {
    await usersRepository.applyBalance(trx, event.data);
  },
};
