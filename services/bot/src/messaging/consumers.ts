import type { Consumer, EventSchemas } from '@gpt/kit';
import type { BotDatabase } from '../data/schema';
import type { BotDeps } from '../deps';
import { accountsLinkedConsumer } from './accounts-linked.consumer';
import { accountsUnlinkedConsumer } from './accounts-unlinked.consumer';
import { creditsChangedConsumer } from './credits-changed.consumer';
import { passwordResetConsumer } from './password-reset.consumer';
import { paymentCanceledConsumer, paymentFailedConsumer } from './payment-not-paid.consumer';
import { paymentRefundedConsumer } from './payment-refunded.consumer';
import { paymentSucceededConsumer } from './payment-succeeded.consumer';
import { referralRewardedConsumer } from './referral-rewarded.consumer';
import { subscriptionNoticeConsumer } from './subscription-notice.consumer';
import { supportAnsweredConsumer } from './support-answered.consumer';

/** Every event the bot reacts to. */
export function botConsumers(deps: BotDeps): Consumer<BotDatabase, EventSchemas>[] {
  return [
    paymentSucceededConsumer(deps),
    paymentCanceledConsumer(deps),
    paymentFailedConsumer(deps),
    paymentRefundedConsumer(deps),
    creditsChangedConsumer(deps),
    accountsLinkedConsumer(deps),
    accountsUnlinkedConsumer(deps),
    passwordResetConsumer(deps),
    referralRewardedConsumer(deps),
    supportAnsweredConsumer(deps),
    subscriptionNoticeConsumer(deps),
  ];
}
