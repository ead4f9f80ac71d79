import { InlineKeyboard } from 'grammy';
import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { sendNotes, type BotConsumer } from './notes';

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
 * user's chat too (the e-mail carries the same link).
 */
export const passwordResetConsumer = (deps: BotDeps): BotConsumer<'password_reset.requested'> => ({
  event: 'password_reset.requested',
  async handle(trx, event) {
    // By the Telegram account: its chat may not have been re-pointed to the web account yet.
    const chat = await chatsRepository(trx).find(event.data.telegram_id);
    if (!chat) return [];
    return [
      {
        chat,
        html: resetText(event.data.expires_at),
        keyboard: new InlineKeyboard().url('Сменить пароль', event.data.url),
      },
    ];
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
