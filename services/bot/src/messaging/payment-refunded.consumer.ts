import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

/** An admin refunded a payment: «Платёж N ₽ возвращён» in every chat of the payer. */
export const paymentRefundedConsumer = (deps: BotDeps): BotConsumer<'payment.refunded'> => ({
  event: 'payment.refunded',
  async handle(trx, event) {
    const chats = await chatsRepository(trx).findByUser(event.data.user_id);
    return chats.map((chat) => ({ chat, html: texts.paymentRefunded(event.data) }));
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
