import type { Consumer, EventSchemas } from '@gpt/kit';
import { InlineKeyboard } from 'grammy';
import { chatsRepository } from '../data/chats.repository';
import type { BotDatabase } from '../data/schema';
import type { BotDeps } from '../deps';
import { sendWithButtons } from '../telegram/handlers';

const time = new Intl.DateTimeFormat('ru-RU', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Moscow',
});

const resetText = (expiresAt: string) =>
  [
    '🔑 Ссылка для смены пароля на сайте.',
    `Действует до ${time.format(new Date(expiresAt))} (МСК) и срабатывает один раз.`,
    'Если вы не запрашивали смену пароля, просто не открывайте её.',
  ].join('\n');

/**
 * Someone asked to recover the web password of an account linked to Telegram: the link goes to the
 * user's chat too. Telegram being off or the bot blocked is logged, not redelivered: the e-mail
 * carries the same link.
 */
export const passwordResetConsumer = (
  deps: BotDeps,
): Consumer<BotDatabase, EventSchemas, 'password_reset.requested'> => ({
  event: 'password_reset.requested',
  async handle(event, trx) {
    const api = deps.telegram.api();
    if (!api) return;
    const keyboard = new InlineKeyboard().url('Сменить пароль', event.data.url);
    // By the Telegram account: its chat may not have been re-pointed to the web account yet.
    const chat = await chatsRepository(trx).find(event.data.telegram_id);
    if (!chat) return;
    try {
      await sendWithButtons(api, chat.chatId, resetText(event.data.expires_at), keyboard);
    } catch (err) {
      deps.logger.warn({ err, telegramId: chat.telegramId }, 'could not send the password reset link in Telegram');
    }
  },
});
