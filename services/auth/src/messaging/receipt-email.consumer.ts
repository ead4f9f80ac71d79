import type { Consumer, EventSchemas } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import type { AuthDatabase } from '../data/schema';
import { usersRepository } from '../data/users.repository';
import { profileChanged } from '../domain/profile-cache';
import { userSnapshot } from '../domain/user-snapshot';

/**
 * An e-mail the payer gave for a receipt becomes the user's `telegram_email`, so the profile
 * shows it and the next payment uses it without asking (`user.updated` tells the others).
 */
export const receiptEmailConsumer = (
  deps: AuthDeps,
): Consumer<AuthDatabase, EventSchemas, 'receipt_email.supplied'> => ({
  event: 'receipt_email.supplied',
  async handle(trx, event) {
    const user = await usersRepository(trx).findByIdForUpdate(event.data.user_id);
    if (!user || user.telegramEmail === event.data.email) return;
    const updated = await usersRepository(trx).update(user.id, { telegramEmail: event.data.email });
    await deps.bus.publish(trx, 'user.updated', {
      ...userSnapshot(updated),
      updated_at: updated.updatedAt.toISOString(),
    });
  },
  afterCommit: (event) => profileChanged(deps, event.data.user_id),
});
