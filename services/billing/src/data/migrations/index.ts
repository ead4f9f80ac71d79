import { auditLogMigration, idempotencyMigration } from '@gpt/kit';
import type { Migration } from 'kysely';
import { tariffsMigration } from './0001-tariffs';
import { ledgerAndPaymentsMigration } from './0002-ledger-and-payments';
import { holdsMigration } from './0003-holds';
import { welcomeCreditsMigration } from './0004-welcome-credits';
import { paymentsByUserMigration } from './0005-payments-by-user';
import { starsAndRefundsMigration } from './0010-stars-and-refunds';
import { referralsAndPromoCodesMigration } from './0020-referrals-and-promo-codes';
import { welcomeGrantsMigration } from './0021-welcome-grants';
import { refundKeysMigration } from './0041-refund-keys';
import { reconciliationReportsMigration } from './0043-reconciliation-reports';
import { resumedTariffsMigration } from './0022-resumed-tariffs';
import { referralPendingMigration } from './0050-referral-pending';
import { subscriptionsMigration } from './0080-subscriptions';
import { starSubscriptionsMigration } from './0081-star-subscriptions';

/** Versioned migrations of the billing database, applied in name order at start (after the bus tables). */
export const migrations: Record<string, Migration> = {
  '0001_tariffs': tariffsMigration,
  '0002_ledger_and_payments': ledgerAndPaymentsMigration,
  '0003_holds': holdsMigration,
  '0004_welcome_credits': welcomeCreditsMigration,
  '0005_payments_by_user': paymentsByUserMigration,
  '0010_stars_and_refunds': starsAndRefundsMigration,
  '0020_referrals_and_promo_codes': referralsAndPromoCodesMigration,
  '0021_welcome_grants': welcomeGrantsMigration,
  '0022_resumed_tariffs': resumedTariffsMigration,
  '0040_idempotent_requests': idempotencyMigration,
  '0041_refund_keys': refundKeysMigration,
  '0042_audit_log': auditLogMigration,
  '0043_reconciliation_reports': reconciliationReportsMigration,
  '0050_referral_pending': referralPendingMigration,
  '0080_subscriptions': subscriptionsMigration,
  '0081_star_subscriptions': starSubscriptionsMigration,
};
