import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { keyboards } from '../telegram/keyboards';
import { buttons, texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

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
        html: texts.passwordReset(event.data.expires_at),
        keyboard: keyboards.url(buttons.changePassword, event.data.url),
      },
    ];
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
