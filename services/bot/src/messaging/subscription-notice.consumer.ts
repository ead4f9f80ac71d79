import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { subscriptionTexts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

/**
 * What billing tells a subscription's owner — a card renewal, a reminder before the charge, a decline, the end, a
 * cancellation — in every chat of the owner (docs/money.md, Subscriptions). A Stars payment is announced by
 * «Оплата получена» already.
 */
export const subscriptionNoticeConsumer = (deps: BotDeps): BotConsumer<'subscription.notice'> => ({
  event: 'subscription.notice',
  async handle(trx, event) {
    const html = subscriptionTexts.notice(event.data);
    if (!html) return [];
    return (await chatsRepository(trx).findByUser(event.data.user_id)).map((chat) => ({ chat, html }));
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
