import { usersRepository } from '../data/users.repository';
import type { BillingConsumer } from './consumer';

/** A deleted user pays no more; the balance, ledger and payments stay as the record of what happened. */
export const userDeletedConsumer: BillingConsumer<'user.deleted'> = {
  event: 'user.deleted',
  async handle(trx, event) {
    await usersRepository(trx).markDeleted(event.data);
  },
};
