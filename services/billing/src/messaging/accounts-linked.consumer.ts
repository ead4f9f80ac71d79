import type { BillingDeps } from '../deps';
import { mergeAccounts } from '../domain/merge-accounts';
import { revokeSelfReferrals } from '../domain/referrals';
import type { BillingConsumer } from './consumer';

/**
 * Linking a Telegram account that had its own account merges that account's money into the web
 * account; a referral bonus either account earned from the other was the person inviting
 * themselves, and is taken back.
 */
export function accountsLinkedConsumer(deps: BillingDeps): BillingConsumer<'accounts.linked'> {
  return {
    event: 'accounts.linked',
    async handle(trx, event) {
      await mergeAccounts(trx, deps.bus, event.id, event.data);
      const merged = event.data.merged_user_id;
      if (merged !== null) await revokeSelfReferrals(trx, deps.bus, event.data.user_id, merged);
    },
  };
}
