import type { Consumer, EventSchemas } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import type { AuthDatabase } from '../data/schema';
import { creditsChangedConsumer } from './credits-changed.consumer';
import { messageRecordedConsumer } from './message-recorded.consumer';
import { receiptEmailConsumer } from './receipt-email.consumer';
import { subscriptionNoticeConsumer } from './subscription-notice.consumer';
import { supportAnsweredConsumer } from './support-answered.consumer';

/**
 * What auth consumes: its projection of balances and message usage, receipt e-mails given with payments,
 * answers to support requests and subscription notices to mail.
 */
export const authConsumers = (deps: AuthDeps): Consumer<AuthDatabase, EventSchemas>[] => [
  creditsChangedConsumer(deps),
  messageRecordedConsumer,
  receiptEmailConsumer(deps),
  supportAnsweredConsumer(deps),
  subscriptionNoticeConsumer(deps),
];
