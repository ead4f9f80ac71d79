import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareFn, Transformer } from 'grammy';
import { ServiceCallError } from '../clients/services';
import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import type { PrivateContext } from './context';

const REPORT_BATCH = 100;
const BLOCKED = 'Forbidden: bot was blocked by the user';

/** What Telegram answers when a private chat cannot get messages any more. */
function refusesChat(result: { ok: boolean; error_code?: number; description?: string }): boolean {
  if (result.ok) return false;
  // 403: the user blocked the bot, deleted their account, or never started it; 400 «chat not found»: gone.
  return result.error_code === 403 || (result.error_code === 400 && /chat not found/i.test(result.description ?? ''));
}

/** The private chat a Bot API call goes to (private chats have the user's id, a positive number). */
function privateChatOf(payload: unknown): number | null {
  const chatId = (payload as { chat_id?: unknown } | undefined)?.chat_id;
  return typeof chatId === 'number' && chatId > 0 ? chatId : null;
}

export interface BlockedChats {
  /** The API transformer: records a chat Telegram refuses, and fails calls to a marked chat without calling Telegram. */
  transformer: Transformer;
  /**
   * Middleware for every update of a private chat, after the account's: a user who writes (or presses
   * a button) has unblocked the bot.
   */
  unblock: MiddlewareFn<PrivateContext>;
  /** Sends again the marks auth has not stored yet, now and every BOT_BLOCKED_REPORT_INTERVAL_SEC; returns the stop. */
  start(): () => void;
}

/**
 * Users who blocked the bot (docs/architecture.md, The bot). The first 403 for a private chat
 * marks it in `chats.blocked_at` and in Redis (`bot:blocked:<chat>`, read by every replica before a
 * call); from then on every call to that chat — answers, payment and balance notices, link and
 * password messages — fails at once with the same 403, never reaching Telegram and never retried. Auth
 * is told (`PUT /api/bot/users/{id}/blocked`) for the admin users list, outside any transaction; a
 * report that fails stays `blocked_unreported` and is sent again. Any update from the chat clears it.
 */
export function blockedChats(deps: Pick<BotDeps, 'db' | 'kv' | 'services' | 'logger' | 'config'>): BlockedChats {
  const chats = chatsRepository(deps.db);
  const keyOf = (chatId: number) => `bot:blocked:${chatId}`;
  /**
   * The chat whose update is being handled: its user just wrote, so calls to it skip the Redis read
   * until Telegram refuses one (`refused`), after which the rest of the update's calls fail at once.
   */
  const writing = new AsyncLocalStorage<{ chatId: number; refused: boolean }>();

  /** False when auth could not be reached (the mark stays unreported, to be sent again). */
  async function report(telegramId: number, blocked: boolean): Promise<boolean> {
    try {
      await deps.services.setTelegramBlocked(telegramId, blocked);
    } catch (err) {
      if (!(err instanceof ServiceCallError && err.status === 404)) {
        deps.logger.warn(
          { err, telegramId, blocked },
          'could not tell auth whether the user blocked the bot; sent again later',
        );
        return false;
      }
      // Auth has no such user (deleted by an admin): there is nobody to mark.
      deps.logger.warn({ telegramId, blocked }, 'auth does not know the Telegram user the bot marks');
    }
    await chats.blockedReported(telegramId, blocked);
    return true;
  }

  const reporting = new Map<number, Promise<boolean>>();
  /** One chat's reports go to auth in the order of its marks, so a quick block and unblock end as unblocked. */
  function reportInOrder(telegramId: number, blocked: boolean): Promise<boolean> {
    const sent = (reporting.get(telegramId) ?? Promise.resolve(true))
      .then(() => report(telegramId, blocked))
      .catch(() => false);
    reporting.set(telegramId, sent);
    void sent.then(() => {
      if (reporting.get(telegramId) === sent) reporting.delete(telegramId);
    });
    return sent;
  }

  /** The database first: a Redis mark always has its row's (which `unblock` reads to know there is one to clear). */
  async function markBlocked(chatId: number, description: string | undefined): Promise<void> {
    const state = await chats.markBlocked(chatId);
    await deps.kv.set(keyOf(chatId), '1');
    if (state === 'marked')
      deps.logger.info(
        { telegramId: chatId, description },
        'the user blocked the bot: nothing is sent until they write',
      );
    if (state !== 'known') void reportInOrder(chatId, true);
  }

  /** One round of marks auth has not stored; it ends at the first that cannot reach auth. */
  async function reportAgain(): Promise<void> {
    for (const chat of await chats.blockedUnreported(REPORT_BATCH)) {
      if (!(await reportInOrder(chat.telegramId, chat.blocked))) return;
    }
  }

  return {
    transformer: async (prev, method, payload, signal) => {
      const chatId = privateChatOf(payload);
      if (chatId === null) return prev(method, payload, signal);
      const update = writing.getStore();
      const ownChat = update?.chatId === chatId;
      const marked = ownChat ? update.refused : await deps.kv.get(keyOf(chatId)).catch(() => null);
      if (marked) return { ok: false, error_code: 403, description: BLOCKED };
      const result = await prev(method, payload, signal);
      if (refusesChat(result)) {
        if (ownChat) update.refused = true;
        await markBlocked(chatId, result.ok ? undefined : result.description).catch((err: unknown) =>
          deps.logger.error({ err, telegramId: chatId }, 'could not mark the chat as blocked'),
        );
      }
      return result;
    },

    unblock: async (ctx, next) => {
      const chatId = ctx.chat.id;
      if (ctx.account.blockedAt) {
        await deps.kv.del(keyOf(chatId));
        if (await chats.clearBlocked(chatId)) {
          deps.logger.info({ telegramId: chatId }, 'the user wrote to the bot again: no longer blocked');
          void reportInOrder(chatId, false);
        }
      }
      await writing.run({ chatId, refused: false }, next);
    },

    start() {
      let timer: NodeJS.Timeout | undefined;
      let stopped = false;
      const run = () => {
        reportAgain()
          .catch((err: unknown) => deps.logger.warn({ err }, 'sending blocked marks to auth again failed'))
          .finally(() => {
            if (!stopped) timer = setTimeout(run, deps.config.BOT_BLOCKED_REPORT_INTERVAL_SEC * 1000).unref();
          });
      };
      run();
      return () => {
        stopped = true;
        clearTimeout(timer);
      };
    },
  };
}
