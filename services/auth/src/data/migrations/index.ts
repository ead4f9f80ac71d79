import { auditLogMigration, idempotencyMigration } from '@gpt/kit';
import type { Migration } from 'kysely';
import { usersMigration } from './0001-users';
import { linkTokensMigration } from './0002-link-tokens';
import { balanceProjectionMigration } from './0003-balance-projection';
import { heldCreditsMigration } from './0004-held-credits';
import { passwordResetTokensMigration } from './0005-password-reset-tokens';
import { welcomeCreditsMigration } from './0006-welcome-credits';
import { telegramLanguageMigration } from './0007-telegram-language';
import { referralsMigration } from './0020-referrals';
import { emailConfirmationMigration } from './0021-email-confirmation';
import { telegramBlockedMigration } from './0031-telegram-blocked';
import { resetByTelegramMigration } from './0051-reset-by-telegram';
import { linkPhotoMigration } from './0052-link-photo';
import { signInTokensMigration } from './0060-sign-in-tokens';
import { newsOptOutMigration } from './0070-news-opt-out';

/** Versioned migrations of the auth database, applied in name order at start (after the bus tables). */
export const migrations: Record<string, Migration> = {
  '0001_users': usersMigration,
  '0002_link_tokens': linkTokensMigration,
  '0003_balance_projection': balanceProjectionMigration,
  '0004_held_credits': heldCreditsMigration,
  '0005_password_reset_tokens': passwordResetTokensMigration,
  '0006_welcome_credits': welcomeCreditsMigration,
  '0007_telegram_language': telegramLanguageMigration,
  '0020_referrals': referralsMigration,
  '0021_email_confirmation': emailConfirmationMigration,
  '0031_telegram_blocked': telegramBlockedMigration,
  '0040_idempotent_requests': idempotencyMigration,
  '0041_audit_log': auditLogMigration,
  '0051_reset_by_telegram': resetByTelegramMigration,
  '0052_link_photo': linkPhotoMigration,
  '0060_sign_in_tokens': signInTokensMigration,
  '0070_news_opt_out': newsOptOutMigration,
};
