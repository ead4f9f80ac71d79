import type { BillingDeps } from '../deps';
import { revokeReferralBonus, rewardReferrer } from '../domain/referrals';
import type { BillingConsumer } from './consumer';

/**
 * Referral bonuses follow real money only: every succeeded payment (whatever its provider) pays
 * the payer's inviter once, and its refund takes that bonus back.
 */
export function referralPaymentConsumers(
  deps: BillingDeps,
): [BillingConsumer<'payment.succeeded'>, BillingConsumer<'payment.refunded'>] {
  return [
    {
      event: 'payment.succeeded',
      async handle(trx, event) {
        await rewardReferrer(trx, deps.bus, event.data);
      },
    },
    {
      event: 'payment.refunded',
      handle: (trx, event) => revokeReferralBonus(trx, deps.bus, event.data.payment_id),
    },
  ];
}
