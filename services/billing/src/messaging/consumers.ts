import type { Consumer, EventSchemas } from '@gpt/kit';
import type { BillingDeps } from '../deps';
import type { BillingDatabase } from '../data/schema';
import { accountsLinkedConsumer } from './accounts-linked.consumer';
import { messageRecordedConsumer } from './message-recorded.consumer';
import { settingChangedConsumer } from './setting-changed.consumer';
import { userChangedConsumers } from './user-changed.consumer';
import { userDeletedConsumer } from './user-deleted.consumer';

/** Every event billing reacts to. */
export function billingConsumers(deps: BillingDeps): Consumer<BillingDatabase, EventSchemas>[] {
  return [
    ...userChangedConsumers(deps),
    userDeletedConsumer,
    accountsLinkedConsumer(deps),
    messageRecordedConsumer(deps),
    settingChangedConsumer,
  ];
}
