import type { UserUpdatedData } from '@gpt/contracts';
import type { User } from '../data/users.repository';

/** The profile snapshot that user.* events carry. */
export function userSnapshot(user: User): Omit<UserUpdatedData, 'updated_at'> {
  return {
    user_id: user.id,
    email: user.email,
    role: user.role,
    username: user.username,
    first_name: user.firstName,
    last_name: user.lastName,
    telegram_id: user.telegramId === null ? null : Number(user.telegramId),
    telegram_username: user.telegramUsername,
    telegram_email: user.telegramEmail,
    utm_source: user.utmSource,
    referral_code: user.referralCode,
    referred_by: user.referredBy,
    created_at: user.createdAt.toISOString(),
    version: user.version,
  };
}
