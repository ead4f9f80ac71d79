import type { UserUpdatedData } from '@gpt/contracts';
import { usersRepository, type User } from '../data/users.repository';
import type { AuthDeps } from '../deps';
import { authErrors } from './errors';

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

/** A user's snapshot as it is now, by id or Telegram id; a deleted or unknown user is not found. */
export async function currentSnapshot(
  deps: Pick<AuthDeps, 'db'>,
  key: { id: number } | { telegramId: number },
): Promise<UserUpdatedData> {
  const users = usersRepository(deps.db);
  const user = 'id' in key ? await users.findById(key.id) : await users.findByTelegramId(String(key.telegramId));
  if (!user) throw authErrors.userNotFound();
  return { ...userSnapshot(user), updated_at: user.updatedAt.toISOString() };
}
