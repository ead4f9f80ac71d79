import { GrammyError, type Api, type ChatTypeContext, type Context, type InlineKeyboard } from 'grammy';
import type { Update } from 'grammy/types';
import type { Chat } from '../data/chats.repository';
import { sendWithButtons } from './send';

/** An update with its Telegram user as the bot keeps them, set by the account middleware. */
export interface BotContext extends Context {
  account: Chat;
  /** True on the update that first brought this Telegram user to the bot (no chat of theirs was kept yet). */
  firstContact: boolean;
}

/** A kind of update Telegram sends (`message`, `callback_query`…), as `allowed_updates` names them. */
export type UpdateType = Exclude<keyof Update, 'update_id'>;

/** What ends a Bot API call, as grammY 1 declares it (the abort-controller package's type). */
export type TelegramSignal = NonNullable<Parameters<Api['getMe']>[0]>;

/** Node's own AbortSignal, which grammY's fetch takes at run time, as grammY 1's declared type. */
export const telegramSignal = (signal: AbortSignal) => signal as unknown as TelegramSignal;

/** The bot answers private chats only; every feature is a composer of these. */
export type PrivateContext = ChatTypeContext<BotContext, 'private'>;

/** Answers in the user's chat (Telegram HTML, optional buttons). */
export const reply = (ctx: BotContext, html: string, keyboard?: InlineKeyboard) =>
  sendWithButtons(ctx.api, ctx.account.chatId, html, keyboard);

/**
 * Redraws the message whose button was pressed (a list with the new choice ticked); a press of the
 * choice already ticked leaves it as it is, which Telegram answers «message is not modified».
 */
export async function redraw(ctx: BotContext, html: string, keyboard: InlineKeyboard): Promise<void> {
  await ctx
    .editMessageText(html, { parse_mode: 'HTML', link_preview_options: { is_disabled: true }, reply_markup: keyboard })
    .catch((err: unknown) => {
      if (!(err instanceof GrammyError && /not modified/i.test(err.description))) throw err;
    });
}
