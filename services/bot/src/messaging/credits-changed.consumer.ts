import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { keyboards } from '../telegram/keyboards';
import { texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

/**
 * A balance changed. After a charge that takes the available credits below the threshold, one
 * alert with the top-up button; not again until the balance has been at or above it. Each event is
 * one conditional update of the user's chats (idempotent: a redelivered event changes nothing, so
 * it alerts nobody twice), the most frequent event the bot gets costing no inbox transaction.
 */
export const creditsChangedConsumer = (deps: BotDeps): BotConsumer<'credits.changed', number> => ({
  event: 'credits.changed',
  idempotent: true,
  before: async () => (await deps.catalog.get()).settings.lowBalanceThreshold,
  async handle(db, event, lowBalanceThreshold) {
    const snapshot = event.data;
    const chats = chatsRepository(db);
    const available = snapshot.credits + snapshot.included_credits - snapshot.held_credits;
    if (available >= lowBalanceThreshold) {
      await chats.setLowBalanceAlerted(snapshot.user_id, false);
      return [];
    }
    if (snapshot.reason !== 'message_charge') return [];
    return (await chats.setLowBalanceAlerted(snapshot.user_id, true)).map((chat) => ({
      chat,
      html: texts.lowBalance(available),
      keyboard: keyboards.topUp(),
    }));
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
