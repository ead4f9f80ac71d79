import type { BotTelegramBlockedResponse, BotUpsertUserRequest, BotUser } from '@gpt/contracts';
import { stripBidi } from '@gpt/kit';
import type { AuthDeps } from '../deps';
import { type User, type UserChanges, usersRepository } from '../data/users.repository';
import { authErrors } from './errors';
import { changingProfiles } from './profile-cache';
import { toBotUser } from './user-views';
import { inviterOf } from './referrals';
import { userSnapshot } from './user-snapshot';

/** What the bot's current view of the Telegram profile changes; utm_source is only ever filled in once. */
function changesFrom(user: User, input: BotUpsertUserRequest): UserChanges {
  const changes: UserChanges = {};
  if (input.username !== user.username) changes.username = input.username;
  if (input.username !== user.telegramUsername) changes.telegramUsername = input.username;
  if (input.first_name !== user.firstName) changes.firstName = input.first_name;
  if (input.last_name !== user.lastName) changes.lastName = input.last_name;
  if (user.utmSource === null && input.utm_source !== null) changes.utmSource = input.utm_source;
  if (input.language_code !== undefined && input.language_code !== user.telegramLanguage) {
    changes.telegramLanguage = input.language_code;
  }
  return changes;
}

/** Telegram names are anyone's choice: bidirectional controls are stripped, as from articles. */
const cleanName = (name: string | null) => (name === null ? null : stripBidi(name));

/**
 * The bot reports a Telegram user: created on first sight (`user.registered`, source telegram, and
 * `user.confirmed`: the first /start confirms a bot user, docs/product.md, Welcome credits), otherwise brought up to date (`user.updated` when anything changed).
 */
export async function upsertBotUser(deps: AuthDeps, reported: BotUpsertUserRequest): Promise<BotUser> {
  const { bus } = deps;
  const input = {
    ...reported,
    username: cleanName(reported.username),
    first_name: cleanName(reported.first_name),
    last_name: cleanName(reported.last_name),
  };
  const telegramId = String(input.telegram_id);
  return changingProfiles(deps, async (trx, changed) => {
    let existing = await usersRepository(trx).findByTelegramIdForUpdate(telegramId);
    if (!existing) {
      const created = await usersRepository(trx).createFromTelegram({
        telegramId,
        username: input.username,
        firstName: input.first_name,
        lastName: input.last_name,
        utmSource: input.utm_source,
        referredBy: await inviterOf(trx, input.referral_code ?? null),
        language: input.language_code ?? null,
      });
      if (created) {
        await bus.publish(trx, 'user.registered', { ...userSnapshot(created), source: 'telegram' });
        await bus.publish(trx, 'user.confirmed', {
          user_id: created.id,
          at: created.createdAt.toISOString(),
          via: 'telegram',
          ip: null,
        });
        return toBotUser({ ...created, telegramId });
      }
      // A parallel call created it first; update that row instead.
      existing = (await usersRepository(trx).findByTelegramIdForUpdate(telegramId))!;
    }
    const changes = changesFrom(existing, input);
    if (Object.keys(changes).length === 0) return toBotUser({ ...existing, telegramId });
    const updated = await usersRepository(trx).update(existing.id, changes);
    changed(updated.id);
    await bus.publish(trx, 'user.updated', { ...userSnapshot(updated), updated_at: updated.updatedAt.toISOString() });
    return toBotUser({ ...updated, telegramId });
  });
}

/**
 * The bot reports that the Telegram user blocked it (Telegram answered 403) or wrote to it again: the
 * admin users list shows the mark (docs/architecture.md, Calls between services). Repeating a report
 * changes nothing; the first report's time stays.
 */
export async function setTelegramBlocked(
  deps: AuthDeps,
  telegramId: number,
  blocked: boolean,
): Promise<BotTelegramBlockedResponse> {
  const user = await usersRepository(deps.db).setTelegramBlocked(String(telegramId), blocked);
  if (!user) throw authErrors.userNotFound();
  return { telegram_id: telegramId, telegram_blocked_at: user.telegramBlockedAt?.toISOString() ?? null };
}
