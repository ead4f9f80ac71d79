import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

/**
 * The site account let go of its Telegram account: the chat belongs to the Telegram user's new
 * account from the next message on (it no longer spends the site account's credits), and the user is told.
 */
export const accountsUnlinkedConsumer = (deps: BotDeps): BotConsumer<'accounts.unlinked'> => ({
  event: 'accounts.unlinked',
  async handle(trx, event) {
    const { telegram_id: telegramId, telegram_user_id: userId } = event.data;
    const chats = await chatsRepository(trx).repoint(telegramId, userId, false);
    return chats.map((chat) => ({ chat, html: texts.unlinked }));
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
