import type {
  BotLinkTokenRequest,
  BotLinkTokenResponse,
  LinkAccountResponse,
  LinkPreviewResponse,
} from '@gpt/contracts';
import type { AdminAction } from '@gpt/kit';
import type { Kysely, Transaction } from 'kysely';
import type { AuthDeps } from '../deps';
import { type LinkToken, linkTokensRepository } from '../data/link-tokens.repository';
import type { AuthDatabase } from '../data/schema';
import { type User, usersRepository } from '../data/users.repository';
import { authErrors } from './errors';
import { sendMail } from './mailer';
import { changingProfiles } from './profile-cache';
import { assertUsable, newSingleUseToken, tokenHash } from './single-use-token';
import { mergedInviter } from './referrals';
import { toProfile } from './user-views';
import { userSnapshot } from './user-snapshot';

/**
 * A single-use link for the bot to send: valid LINK_TOKEN_TTL_MIN minutes, stored only as a hash, with the Telegram
 * account's profile photo when the bot found one (the link page shows it).
 */
export async function issueLinkToken(deps: AuthDeps, request: BotLinkTokenRequest): Promise<BotLinkTokenResponse> {
  const { config, db } = deps;
  const { token, hash, expiresAt } = newSingleUseToken(config.LINK_TOKEN_TTL_MIN);
  await linkTokensRepository(db).create({
    hash,
    telegramId: String(request.telegram_id),
    expiresAt,
    photo: request.photo ?? null,
  });
  return { token, url: `${config.SITE_URL}/link/${token}`, expires_at: expiresAt.toISOString() };
}

/** The web account keeps its own identity and takes what only the Telegram side knew (see `mergedInviter`). */
function mergedProfile(web: User, telegramId: string, telegram: User | undefined) {
  return {
    telegramId,
    telegramUsername: telegram?.telegramUsername ?? null,
    telegramBlockedAt: telegram?.telegramBlockedAt ?? null,
    // Broadcasts stay off if either account had turned them off.
    newsOptOut: web.newsOptOut || (telegram?.newsOptOut ?? false),
    username: web.username ?? telegram?.username ?? null,
    firstName: web.firstName ?? telegram?.firstName ?? null,
    lastName: web.lastName ?? telegram?.lastName ?? null,
    telegramEmail: web.telegramEmail ?? telegram?.telegramEmail ?? null,
    utmSource: web.utmSource ?? telegram?.utmSource ?? null,
    referredBy: mergedInviter(web, telegram),
  };
}

/**
 * A link token and the account that holds its Telegram user now (the user's own, or a
 * Telegram-only one), refused as `linkAccounts` refuses: an unknown, used or expired token, or a
 * Telegram account another site account holds.
 */
async function pendingLink(
  db: Kysely<AuthDatabase>,
  token: string,
  userId: number,
): Promise<{ link: LinkToken; holder?: User }> {
  const link = assertUsable(await linkTokensRepository(db).findForUpdate(tokenHash(token)), {
    unknown: authErrors.linkTokenUnknown,
    used: authErrors.linkTokenUsed,
    expired: authErrors.linkTokenExpired,
  });
  const holder = await usersRepository(db).findByTelegramIdForUpdate(link.telegramId);
  if (holder && holder.id !== userId && holder.email !== null) throw authErrors.telegramLinkedElsewhere();
  return { link, holder };
}

/** How far up an inviter's own inviters a link looks for the person themselves. */
const INVITER_CHAIN_MAX = 10;

/**
 * Whether the inviter the merged person would get was invited, directly or through others, by one of
 * the person's own accounts: a cycle through linking (A invites B, B invites A's other account) would
 * pay bonuses both ways, so the person then has no inviter.
 */
async function invitedByThemselves(
  db: Kysely<AuthDatabase>,
  inviter: number | null,
  own: Array<number | undefined>,
): Promise<boolean> {
  let next = inviter;
  for (let hop = 0; next !== null && hop < INVITER_CHAIN_MAX; hop += 1) {
    next = (await usersRepository(db).findById(next))?.referredBy ?? null;
    if (next !== null && own.includes(next)) return true;
  }
  return false;
}

/** Whose Telegram account asks to be linked, for the owner to see before pressing «Связать»; the token stays unused. */
export async function previewLink(deps: AuthDeps, userId: number, token: string): Promise<LinkPreviewResponse> {
  const { link, holder: telegram } = await deps.db.transaction().execute((trx) => pendingLink(trx, token, userId));
  return {
    telegram: {
      first_name: telegram?.firstName ?? null,
      last_name: telegram?.lastName ?? null,
      username: telegram?.telegramUsername ?? null,
      photo: link.photo,
    },
    expires_at: link.expiresAt.toISOString(),
  };
}

/** How a mail names a Telegram account: its @username, its name, or its id. */
function telegramLabel(telegramId: string, telegram: User | undefined): string {
  const name = [telegram?.firstName, telegram?.lastName].filter(Boolean).join(' ');
  const username = telegram?.telegramUsername ? `@${telegram.telegramUsername}` : '';
  return [username, name && (username ? `(${name})` : name)].filter(Boolean).join(' ') || `с ID ${telegramId}`;
}

/** The owner learns of every link, with the way back, in case it was not them who pressed «Связать». */
const linkedMail = (siteUrl: string, label: string) => ({
  subject: 'К вашему аккаунту привязан Telegram',
  text: [
    'Здравствуйте!',
    '',
    `К вашему аккаунту на сайте ${siteUrl} привязан аккаунт Telegram ${label}. Бот теперь тратит кредиты этого аккаунта.`,
    '',
    'Если это были не вы, войдите в личный кабинет, нажмите «Отвязать Telegram» и смените пароль:',
    `${siteUrl}/dashboard`,
  ].join('\n'),
});

/**
 * Binds the Telegram account of a link token to the signed-in web account, once its owner pressed
 * «Связать» on the link page. A Telegram-only account of that Telegram user merges into the web
 * account: its message count and spend move here, `accounts.linked` names it so billing merges the
 * balances and chat-history re-points the messages, and the row ceases to exist. Any refusal
 * leaves the token unused. The owner is told by e-mail.
 */
export async function linkAccounts(deps: AuthDeps, userId: number, token: string): Promise<LinkAccountResponse> {
  const { bus, config, logger } = deps;
  const { answer, mail } = await changingProfiles(deps, async (trx, changed) => {
    const web = await usersRepository(trx).findByIdForUpdate(userId);
    if (!web) throw authErrors.accountGone();
    // Past the first check the holder, if any, is the Telegram user's own account.
    const { link, holder: telegram } = await pendingLink(trx, token, web.id);
    if (web.telegramId === link.telegramId) {
      await linkTokensRepository(trx).markUsed(link.id, web.id);
      return { answer: { success: true as const, merged: false, user: toProfile(web) }, mail: null };
    }
    if (web.telegramId !== null) throw authErrors.webLinkedElsewhere();

    if (telegram) {
      await usersRepository(trx).moveReferrals(telegram.id, web.id);
      await usersRepository(trx).delete(telegram.id);
      changed(telegram.id);
      await usersRepository(trx).addUsage(web.id, {
        messages: telegram.usage.messagesCount,
        spent: telegram.usage.moneySpent,
      });
    }
    const profile = mergedProfile(web, link.telegramId, telegram);
    if (await invitedByThemselves(trx, profile.referredBy, [web.id, telegram?.id])) profile.referredBy = null;
    const linked = await usersRepository(trx).update(web.id, profile);
    changed(web.id);
    await linkTokensRepository(trx).markUsed(link.id, web.id);
    await bus.publish(trx, 'accounts.linked', {
      user_id: web.id,
      merged_user_id: telegram?.id ?? null,
      telegram_id: Number(link.telegramId),
      linked_at: linked.updatedAt.toISOString(),
    });
    await bus.publish(trx, 'user.updated', { ...userSnapshot(linked), updated_at: linked.updatedAt.toISOString() });
    return {
      answer: { success: true as const, merged: telegram !== undefined, user: toProfile(linked) },
      mail: web.email && { to: web.email, ...linkedMail(config.SITE_URL, telegramLabel(link.telegramId, telegram)) },
    };
  });
  if (mail) sendMail(deps, mail).catch((err: unknown) => logger.error({ err }, 'linking notice not sent'));
  return answer;
}

/**
 * The site account lets go of its Telegram account, by its owner or an admin. Nothing is split:
 * what the link merged (balance, payments, messages, referrals) stays with the site account, whose
 * owner proved it with the password (docs/money.md, Linking). The Telegram user goes on with a new
 * Telegram-only account under its current Telegram name, announced as user.registered without a
 * confirmation (the person had their welcome grant), and `accounts.unlinked` points the bot's chat at it.
 */
export async function unlinkTelegram(
  deps: AuthDeps,
  userId: number,
  alongside: (trx: Transaction<AuthDatabase>, telegramId: number) => Promise<void> = async () => {},
): Promise<User> {
  const { bus } = deps;
  return changingProfiles(deps, async (trx, changed) => {
    const users = usersRepository(trx);
    const web = await users.findByIdForUpdate(userId);
    if (!web) throw authErrors.userNotFound();
    if (web.telegramId === null) throw authErrors.telegramNotLinked();
    if (web.email === null) throw authErrors.telegramOnlyAccount();
    const telegramId = web.telegramId;
    const unlinked = await users.update(web.id, { telegramId: null, telegramUsername: null, telegramBlockedAt: null });
    changed(web.id);
    const telegram = await users.createFromTelegram({
      telegramId,
      username: web.telegramUsername,
      firstName: web.firstName,
      lastName: web.lastName,
      utmSource: null,
      referredBy: null,
      language: web.telegramLanguage,
    });
    if (!telegram) throw new Error(`Telegram id ${telegramId} is still held after unlinking user ${web.id}`);
    const at = unlinked.updatedAt.toISOString();
    await bus.publish(trx, 'user.updated', { ...userSnapshot(unlinked), updated_at: at });
    await bus.publish(trx, 'user.registered', { ...userSnapshot(telegram), source: 'telegram' });
    await bus.publish(trx, 'accounts.unlinked', {
      user_id: web.id,
      telegram_id: Number(telegramId),
      telegram_user_id: telegram.id,
      unlinked_at: at,
    });
    await alongside(trx, Number(telegramId));
    return unlinked;
  });
}

/** An admin unlinks a user's Telegram in /admin/users: on the audit log, the answer kept with the request's Idempotency-Key. */
export async function adminUnlinkTelegram(deps: AuthDeps, userId: number, action: AdminAction) {
  const answer = { success: true as const, message: 'Telegram отвязан' };
  await unlinkTelegram(deps, userId, async (trx, telegramId) => {
    await action.record(trx, {
      action: 'user.telegram_unlink',
      target: { type: 'user', id: userId, userId },
      before: { telegram_id: telegramId },
      after: { telegram_id: null },
    });
    await action.keep(trx, answer);
  });
  return answer;
}
