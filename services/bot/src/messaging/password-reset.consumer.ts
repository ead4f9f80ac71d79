import type { Consumer, EventSchemas } from '@gpt/kit';
import { InlineKeyboard } from 'grammy';
import { chatsRepository } from '../data/chats.repository';
import type { BotDatabase } from '../data/schema';
import type { AfterCommitNotes } from './notes';

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
export const passwordResetConsumer = (
  notes: AfterCommitNotes,
): Consumer<BotDatabase, EventSchemas, 'password_reset.requested'> => ({
  event: 'password_reset.requested',
  async handle(event, trx) {
    const out = notes.begin(event.id);
    // By the Telegram account: its chat may not have been re-pointed to the web account yet.
    const chat = await chatsRepository(trx).find(event.data.telegram_id);
    if (!chat) return;
    out.push({
      chat,
      html: resetText(event.data.expires_at),
      keyboard: new InlineKeyboard().url('Сменить пароль', event.data.url),
    });
  },
  afterCommit: (event) => notes.send(event.id),
});
