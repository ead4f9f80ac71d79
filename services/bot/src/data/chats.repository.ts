import type { Kysely, Selectable } from 'kysely';
import type { BotDatabase, ChatsTable } from './schema';

/** What the bot waits for the user to type next, if anything: one question at a time. */
export type Awaiting = { kind: 'instructions' } | { kind: 'receiptEmail'; paymentId: string };

/** A Telegram user as the bot keeps them. */
export interface Chat {
  telegramId: number;
  userId: number;
  chatId: number;
  webLinked: boolean;
  model: string | null;
  lowBalanceAlerted: boolean;
  awaiting: Awaiting | null;
  modeId: number | null;
  voiceReplies: boolean;
  instructions: string | null;
  /** The user blocked the bot (Telegram answered 403) and has not written since; null: not blocked. */
  blockedAt: Date | null;
  /** When the user last wrote (kept to the hour); null: not since the bot keeps it. */
  lastActiveAt: Date | null;
}

function toChat(row: Selectable<ChatsTable>): Chat {
  return {
    telegramId: Number(row.telegram_id),
    userId: row.user_id,
    chatId: Number(row.chat_id),
    webLinked: row.web_linked,
    model: row.model,
    lowBalanceAlerted: row.low_balance_alerted,
    awaiting:
      row.awaiting === 'instructions'
        ? { kind: 'instructions' }
        : row.awaiting === 'receipt_email' && row.awaiting_payment_id
          ? { kind: 'receiptEmail', paymentId: row.awaiting_payment_id }
          : null,
    modeId: row.mode_id,
    voiceReplies: row.voice_replies,
    instructions: row.instructions,
    blockedAt: row.blocked_at,
    lastActiveAt: row.last_active_at,
  };
}

export function chatsRepository(db: Kysely<BotDatabase>) {
  const update = (telegramId: number, values: Partial<Omit<Selectable<ChatsTable>, 'telegram_id'>>) =>
    db
      .updateTable('chats')
      .set({ ...values, updated_at: new Date() })
      .where('telegram_id', '=', String(telegramId))
      .execute();

  return {
    async find(telegramId: number): Promise<Chat | undefined> {
      const row = await db
        .selectFrom('chats')
        .selectAll()
        .where('telegram_id', '=', String(telegramId))
        .executeTakeFirst();
      return row && toChat(row);
    },
    async findByUser(userId: number): Promise<Chat[]> {
      const rows = await db.selectFrom('chats').selectAll().where('user_id', '=', userId).execute();
      return rows.map(toChat);
    },
    /** Creates the chat or refreshes who it belongs to; the model and conversation stay. */
    async upsert(chat: { telegramId: number; userId: number; chatId: number; webLinked: boolean }): Promise<Chat> {
      const row = await db
        .insertInto('chats')
        .values({
          telegram_id: chat.telegramId,
          user_id: chat.userId,
          chat_id: chat.chatId,
          web_linked: chat.webLinked,
          model: null,
          awaiting: null,
          awaiting_payment_id: null,
          mode_id: null,
          instructions: null,
          last_active_at: new Date(),
          updated_at: new Date(),
        })
        .onConflict((oc) =>
          oc.column('telegram_id').doUpdateSet({
            user_id: chat.userId,
            chat_id: chat.chatId,
            web_linked: chat.webLinked,
            last_active_at: new Date(),
            updated_at: new Date(),
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return toChat(row);
    },
    setModel: (telegramId: number, model: string) => update(telegramId, { model }),
    /**
     * Flips the low-balance alert of the user's chats to `alerted` where it is not so yet, in one
     * statement: the chats it changed (the ones to tell, when alerting), none when run again.
     */
    async setLowBalanceAlerted(userId: number, alerted: boolean): Promise<Chat[]> {
      const rows = await db
        .updateTable('chats')
        .set({ low_balance_alerted: alerted, updated_at: new Date() })
        .where('user_id', '=', userId)
        .where('low_balance_alerted', '=', !alerted)
        .returningAll()
        .execute();
      return rows.map(toChat);
    },
    /** Asks the user one question: whatever the bot waited for before is no longer awaited. */
    setAwaiting: (telegramId: number, awaiting: Awaiting) =>
      update(telegramId, {
        awaiting: awaiting.kind === 'instructions' ? 'instructions' : 'receipt_email',
        awaiting_payment_id: awaiting.kind === 'receiptEmail' ? awaiting.paymentId : null,
      }),
    /** The question of this kind is answered or given up, if it is the one awaited. */
    async stopAwaiting(telegramId: number, kind: Awaiting['kind']): Promise<void> {
      await db
        .updateTable('chats')
        .set({ awaiting: null, awaiting_payment_id: null, updated_at: new Date() })
        .where('telegram_id', '=', String(telegramId))
        .where('awaiting', '=', kind === 'instructions' ? 'instructions' : 'receipt_email')
        .execute();
    },
    /** The payment ended without its e-mail: no chat waits to be asked for it any more. */
    async stopAwaitingEmail(paymentId: string): Promise<void> {
      await db
        .updateTable('chats')
        .set({ awaiting: null, awaiting_payment_id: null, updated_at: new Date() })
        .where('awaiting_payment_id', '=', paymentId)
        .execute();
    },
    setMode: (telegramId: number, modeId: number | null) => update(telegramId, { mode_id: modeId }),
    setVoiceReplies: (telegramId: number, on: boolean) => update(telegramId, { voice_replies: on }),
    /** The user wrote to the bot now (for a broadcast's audience by activity). */
    active: (telegramId: number) =>
      db
        .updateTable('chats')
        .set({ last_active_at: new Date() })
        .where('telegram_id', '=', String(telegramId))
        .execute(),
    /** The user's instructions (null: none). */
    setInstructions: (telegramId: number, instructions: string | null) => update(telegramId, { instructions }),
    /**
     * Telegram refused a message to the user's chat (403): the chat is marked blocked once. 'marked' when this
     * call marked it, 'unreported' when it was marked before but auth has not heard of it yet, 'known'
     * otherwise (also for a chat the bot does not keep).
     */
    async markBlocked(telegramId: number): Promise<'marked' | 'unreported' | 'known'> {
      const marked = await db
        .updateTable('chats')
        .set({ blocked_at: new Date(), blocked_unreported: true, updated_at: new Date() })
        .where('telegram_id', '=', String(telegramId))
        .where('blocked_at', 'is', null)
        .executeTakeFirst();
      if (marked.numUpdatedRows > 0n) return 'marked';
      const row = await db
        .selectFrom('chats')
        .select('blocked_unreported')
        .where('telegram_id', '=', String(telegramId))
        .executeTakeFirst();
      return row?.blocked_unreported ? 'unreported' : 'known';
    },
    /** The user wrote again: true when the chat was marked blocked (the mark is gone now). */
    async clearBlocked(telegramId: number): Promise<boolean> {
      const cleared = await db
        .updateTable('chats')
        .set({ blocked_at: null, blocked_unreported: true, updated_at: new Date() })
        .where('telegram_id', '=', String(telegramId))
        .where('blocked_at', 'is not', null)
        .executeTakeFirst();
      return cleared.numUpdatedRows > 0n;
    },
    /** Auth stored the mark as `blocked`: nothing left to report, unless the mark changed meanwhile. */
    async blockedReported(telegramId: number, blocked: boolean): Promise<void> {
      await db
        .updateTable('chats')
        .set({ blocked_unreported: false })
        .where('telegram_id', '=', String(telegramId))
        .where('blocked_unreported', '=', true)
        .where('blocked_at', blocked ? 'is not' : 'is', null)
        .execute();
    },
    /** Chats whose blocked mark auth has not stored yet, a batch at a time. */
    async blockedUnreported(limit: number): Promise<Array<{ telegramId: number; blocked: boolean }>> {
      const rows = await db
        .selectFrom('chats')
        .select(['telegram_id', 'blocked_at'])
        .where('blocked_unreported', '=', true)
        .orderBy('telegram_id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ telegramId: Number(row.telegram_id), blocked: row.blocked_at !== null }));
    },
    /** Accounts were linked: the Telegram user's chats now belong to the surviving account. */
    async repoint(telegramId: number, userId: number, webLinked = true): Promise<Chat[]> {
      const rows = await db
        .updateTable('chats')
        .set({ user_id: userId, web_linked: webLinked, updated_at: new Date() })
        .where('telegram_id', '=', String(telegramId))
        .returningAll()
        .execute();
      return rows.map(toChat);
    },
  };
}
