import type { EventData } from '@gpt/contracts';
import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { keyboards } from '../telegram/keyboards';
import { texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

/**
 * A payment ended without money: the payer's chats are told, with a button to pay again, and stop
 * waiting for its receipt e-mail (billing cancels a payment that waited too long). The bot
 * knows a user's chats, not where a payment was started, so a linked user hears of site payments
 * too, as of successful ones. A failed payment that never reached a payment page is left out: the
 * bot answered that /buy itself («Не удалось создать платёж»); so is a subscription's renewal, which its
 * owner hears of by subscription.notice.
 */
function paymentNotPaidConsumer<K extends 'payment.canceled' | 'payment.failed'>(
  deps: BotDeps,
  type: K,
  say: (payment: EventData<K>) => string | null,
): BotConsumer<K> {
  return {
    event: type,
    async handle(trx, event) {
      const payment = event.data;
      await chatsRepository(trx).stopAwaitingEmail(payment.payment_id);
      const html = payment.subscription_id === null ? say(payment) : null;
      if (html === null) return [];
      return (await chatsRepository(trx).findByUser(payment.user_id)).map((chat) => ({
        chat,
        html,
        keyboard: keyboards.retryPayment(payment),
      }));
    },
    afterCommit: (_event, notes) => sendNotes(deps, notes),
  };
}

export const paymentCanceledConsumer = (deps: BotDeps) =>
  paymentNotPaidConsumer(deps, 'payment.canceled', (payment) => texts.paymentCanceled(payment.amount, payment.reason));

export const paymentFailedConsumer = (deps: BotDeps) =>
  paymentNotPaidConsumer(deps, 'payment.failed', (payment) =>
    payment.yookassa_payment_id === null ? null : texts.paymentNotCompleted(payment.amount),
  );
