import type { BotBalanceResponse } from '@gpt/contracts';
import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';

/**
 * Billing confirmed a payment: «Оплата получена: +N кредитов» (or the new tariff) in every chat of the payer; a card
 * subscription's renewal is told by subscription.notice instead.
 */
export const paymentSucceededConsumer = (
  deps: BotDeps,
): BotConsumer<'payment.succeeded', BotBalanceResponse | null> => ({
  event: 'payment.succeeded',
  // The tariff bought, with its end date, as billing shows it to one of the payer's chats.
  async before(event) {
    const payment = event.data;
    const [chat] = payment.kind === 'tariff' ? await chatsRepository(deps.db).findByUser(payment.user_id) : [];
    return chat ? deps.services.balance(chat.telegramId) : null;
  },
  async handle(trx, event, balance) {
    const payment = event.data;
    if (payment.subscription_id !== null) return [];
    return (await chatsRepository(trx).findByUser(payment.user_id)).map((chat) => ({
      chat,
      html: balance
        ? texts.paymentTariff(balance.tariff.name, payment.credits_amount, balance.tariff.end_date)
        : texts.paymentTopUp(payment.credits_amount),
    }));
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});
