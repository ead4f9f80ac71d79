import type { BotBalanceResponse } from '@gpt/contracts';
import { chatsRepository } from '../data/chats.repository';
import { conversationsRepository } from '../data/conversations.repository';
import type { BotDeps } from '../deps';
import { texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

/** Billing has not merged the linked accounts' balances yet: the event is retried shortly. */
class MergeNotYetApplied extends Error {}

/**
 * The Telegram account joined a web account: its chat and conversations now belong to the survivor, and the bot
 * confirms with the shared balance, once billing shows it (until then the event is retried).
 */
export const accountsLinkedConsumer = (deps: BotDeps): BotConsumer<'accounts.linked', BotBalanceResponse | null> => ({
  event: 'accounts.linked',
  async before(event) {
    const { telegram_id: telegramId, user_id: userId } = event.data;
    if (!(await chatsRepository(deps.db).find(telegramId))) return null;
    const balance = await deps.services.balance(telegramId);
    if (balance.user_id !== userId) throw new MergeNotYetApplied(`billing has not merged ${telegramId} into ${userId}`);
    return balance;
  },
  async handle(trx, event, balance) {
    const { telegram_id: telegramId, user_id: userId, merged_user_id: mergedUserId } = event.data;
    const chats = await chatsRepository(trx).repoint(telegramId, userId);
    if (mergedUserId !== null) await conversationsRepository(trx).moveTo(mergedUserId, userId);
    return balance ? chats.map((chat) => ({ chat, html: texts.linked(balance) })) : [];
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
