import type { ChatTypeContext, Context, InlineKeyboard } from 'grammy';
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

/** The bot answers private chats only; every feature is a composer of these. */
export type PrivateContext = ChatTypeContext<BotContext, 'private'>;

/** Answers in the user's chat (Telegram HTML, optional buttons). */
export const reply = (ctx: BotContext, html: string, keyboard?: InlineKeyboard) =>
  sendWithButtons(ctx.api, ctx.account.chatId, html, keyboard);
