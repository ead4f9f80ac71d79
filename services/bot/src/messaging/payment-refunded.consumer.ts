import type { Consumer, EventSchemas } from '@gpt/kit';
import { chatsRepository } from '../data/chats.repository';
import type { BotDatabase } from '../data/schema';
import { texts } from '../telegram/texts';
import type { AfterCommitNotes } from './notes';

/** An admin refunded a payment: «Платёж N ₽ возвращён» in every chat of the payer. */
export const paymentRefundedConsumer = (
  notes: AfterCommitNotes,
): Consumer<BotDatabase, EventSchemas, 'payment.refunded'> => ({
  event: 'payment.refunded',
  async handle(event, trx) {
    const out = notes.begin(event.id);
    for (const chat of await chatsRepository(trx).findByUser(event.data.user_id)) {
      out.push({ chat, html: texts.paymentRefunded(event.data) });
    }
  },
  afterCommit: (event) => notes.send(event.id),
});
