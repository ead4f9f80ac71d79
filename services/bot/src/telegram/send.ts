import { GrammyError, InlineKeyboard, type Api } from 'grammy';
import type { InlineKeyboardButton } from 'grammy/types';

/**
 * Sends a message with buttons. Telegram refuses URL buttons it cannot open (a site on
 * localhost); then the links go into the text and only the other buttons stay.
 */
export async function sendWithButtons(telegram: Api, chatId: number, html: string, keyboard?: InlineKeyboard) {
  const options = { parse_mode: 'HTML' as const, link_preview_options: { is_disabled: true } };
  try {
    return await telegram.sendMessage(chatId, html, { ...options, reply_markup: keyboard });
  } catch (err) {
    if (!keyboard || !(err instanceof GrammyError) || !/url/i.test(err.description)) throw err;
    const rows = keyboard.inline_keyboard;
    const links = rows.flat().filter((button): button is InlineKeyboardButton.UrlButton => 'url' in button);
    const rest = rows.map((row) => row.filter((button) => !('url' in button))).filter((row) => row.length > 0);
    const text = [html, '', ...links.map((link) => `${link.text}: ${link.url}`)].join('\n');
    return telegram.sendMessage(chatId, text, {
      ...options,
      reply_markup: rest.length ? InlineKeyboard.from(rest) : undefined,
    });
  }
}
