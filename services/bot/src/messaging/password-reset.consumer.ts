import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

/**
 * Someone asked to recover the web password of an account linked to Telegram: the user's chat gets the
 * link when its owner chose to get links here, else is told that it was mailed.
 */
export const passwordResetConsumer = (deps: BotDeps): BotConsumer<'password_reset.requested'> => ({
  event: 'password_reset.requested',
  async handle(trx, event) {
    // By the Telegram account: its chat may not have been re-pointed to the web account yet.
    const chat = await chatsRepository(trx).find(event.data.telegram_id);
    if (!chat) return [];
    const { reset_url: url, expires_at: expiresAt } = event.data;
    return [{ chat, html: url ? texts.passwordResetLink(url, expiresAt) : texts.passwordReset(expiresAt) }];
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
