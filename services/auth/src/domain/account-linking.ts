import type { BotLinkTokenResponse, LinkAccountResponse } from '@gpt/contracts';
import type { AuthDeps } from '../deps';
import { linkTokensRepository } from '../data/link-tokens.repository';
import { type User, usersRepository } from '../data/users.repository';
import { authErrors } from './errors';
import { changingProfiles } from './profile-cache';
import { assertUsable, newSingleUseToken, tokenHash } from './single-use-token';
import { mergedInviter } from './referrals';
import { toProfile } from './user-views';
import { userSnapshot } from './user-snapshot';

/** A single-use link for the bot to send: valid LINK_TOKEN_TTL_MIN minutes, stored only as a hash. */
export async function issueLinkToken(deps: AuthDeps, telegramId: number): Promise<BotLinkTokenResponse> {
  const { config, db } = deps;
  const { token, hash, expiresAt } = newSingleUseToken(config.LINK_TOKEN_TTL_MIN);
  await linkTokensRepository(db).create({ hash, telegramId: String(telegramId), expiresAt });
  return { token, url: `${config.SITE_URL}/link/${token}`, expires_at: expiresAt.toISOString() };
}

/** The web account keeps its own identity and takes what only the Telegram side knew (see `mergedInviter`). */
function mergedProfile(web: User, telegramId: string, telegram: User | undefined) {
  return {
    telegramId,
    telegramUsername: telegram?.telegramUsername ?? null,
    telegramBlockedAt: telegram?.telegramBlockedAt ?? null,
    username: web.username ?? telegram?.username ?? null,
    firstName: web.firstName ?? telegram?.firstName ?? null,
    lastName: web.lastName ?? telegram?.lastName ?? null,
    telegramEmail: web.telegramEmail ?? telegram?.telegramEmail ?? null,
    utmSource: web.utmSource ?? telegram?.utmSource ?? null,
    referredBy: mergedInviter(web, telegram),
  };
}

/**
 * Binds the Telegram account of a link token to the signed-in web account. A Telegram-only
 * account of that Telegram user merges into the web account: its message count and spend move
 * here, `accounts.linked` names it so billing merges the balances and chat-history re-points the
 * messages, and the row ceases to exist. Any refusal leaves the token unused.
 */
export async function linkAccounts(deps: AuthDeps, userId: number, token: string): Promise<LinkAccountResponse> {
  const { bus } = deps;
  return changingProfiles(deps, async (trx, changed) => {
    const link = assertUsable(await linkTokensRepository(trx).findForUpdate(tokenHash(token)), {
      unknown: authErrors.linkTokenUnknown,
      used: authErrors.linkTokenUsed,
      expired: authErrors.linkTokenExpired,
    });

    const web = await usersRepository(trx).findByIdForUpdate(userId);
    if (!web) throw authErrors.accountGone();
    if (web.telegramId === link.telegramId) {
      await linkTokensRepository(trx).markUsed(link.id, web.id);
      return { success: true, merged: false, user: toProfile(web) };
    }
    if (web.telegramId !== null) throw authErrors.webLinkedElsewhere();
    const telegram = await usersRepository(trx).findByTelegramIdForUpdate(link.telegramId);
    if (telegram && telegram.email !== null) throw authErrors.telegramLinkedElsewhere();

    if (telegram) {
      await usersRepository(trx).moveReferrals(telegram.id, web.id);
      await usersRepository(trx).delete(telegram.id);
      changed(telegram.id);
      await usersRepository(trx).addUsage(web.id, {
        messages: telegram.usage.messagesCount,
        spent: telegram.usage.moneySpent,
      });
    }
    const linked = await usersRepository(trx).update(web.id, mergedProfile(web, link.telegramId, telegram));
    changed(web.id);
    await linkTokensRepository(trx).markUsed(link.id, web.id);
    await bus.publish(trx, 'accounts.linked', {
      user_id: web.id,
      merged_user_id: telegram?.id ?? null,
      telegram_id: Number(link.telegramId),
      linked_at: linked.updatedAt.toISOString(),
    });
    await bus.publish(trx, 'user.updated', { ...userSnapshot(linked), updated_at: linked.updatedAt.toISOString() });
    return { success: true, merged: telegram !== undefined, user: toProfile(linked) };
  });
}
