import type { BillingDeps } from '../deps';
import { mergeAccounts } from '../domain/merge-accounts';
import type { BillingConsumer } from './consumer';

/** Linking a Telegram account that had its own account merges that account's money into the web account. */
export function accountsLinkedConsumer(deps: BillingDeps): BillingConsumer<'accounts.linked'> {
  return {
    event: 'accounts.linked',
    handle: (trx, event) => mergeAccounts(trx, deps.bus, event.id, event.data),
  };
}
