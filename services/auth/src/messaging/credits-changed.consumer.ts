import type { Consumer, EventSchemas } from '@gpt/kit';
import type { AuthDatabase } from '../data/schema';
import { usersRepository } from '../data/users.repository';
import type { AuthDeps } from '../deps';
import { profileChanged } from '../domain/profile-cache';

/**
 * Billing's balance snapshot feeds the profile and the admin list; older versions are ignored. The
 * user's kept profile goes after the commit, so the next read shows the new balance.
 */
export const creditsChangedConsumer = (deps: AuthDeps): Consumer<AuthDatabase, EventSchemas, 'credits.changed'> => ({
  event: 'credits.changed',
  async handle(trx, event) {
    await usersRepository(trx).applyBalance(event.data);
  },
  afterCommit: (event) => profileChanged(deps, event.data.user_id),
});
