import type { BotBalanceResponse, EventData } from '@gpt/contracts';
import type { Consumer, EventSchemas } from '@gpt/kit';
import { chatsRepository } from '../data/chats.repository';
import type { BotDatabase } from '../data/schema';
import type { BotDeps } from '../deps';
import { keyboards } from '../telegram/keyboards';
import { texts } from '../telegram/texts';
import { sendNotes, type BotConsumer } from './notes';
import { passwordResetConsumer } from './password-reset.consumer';
import { paymentRefundedConsumer } from './payment-refunded.consumer';

/** Billing confirmed a payment: «Оплата получена: +N кредитов» (or the new tariff) in every chat of the payer. */
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
    return (await chatsRepository(trx).findByUser(payment.user_id)).map((chat) => ({
      chat,
      html: balance
        ? texts.paymentTariff(balance.tariff.name, payment.credits_amount, balance.tariff.end_date)
        : texts.paymentTopUp(payment.credits_amount),
    }));
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});

/**
 * A payment ended without money: the payer's chats are told, with a button to pay again, and stop
 * waiting for its receipt e-mail (billing cancels a payment that waited too long). The bot
 * knows a user's chats, not where a payment was started, so a linked user hears of site payments
 * too, as of successful ones. A failed payment that never reached a payment page is left out: the
 * bot answered that /buy itself («Не удалось создать платёж»).
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
      const html = say(payment);
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

/** Billing has not merged the linked accounts' balances yet: the event is retried shortly. */
class MergeNotYetApplied extends Error {}

/**
 * The Telegram account joined a web account: its chat now belongs to the survivor, and the bot
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
    const { telegram_id: telegramId, user_id: userId } = event.data;
    const chats = await chatsRepository(trx).repoint(telegramId, userId);
    return balance ? chats.map((chat) => ({ chat, html: texts.linked(balance) })) : [];
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});

/** A friend's payment earned the inviter a bonus: «Бонус за друга: +N кредитов» in the inviter's chats. */
export const referralRewardedConsumer = (deps: BotDeps): BotConsumer<'referral.rewarded'> => ({
  event: 'referral.rewarded',
  async handle(trx, event) {
    return (await chatsRepository(trx).findByUser(event.data.referrer_id)).map((chat) => ({
      chat,
      html: texts.referralRewarded(event.data.credits),
    }));
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});

/** An admin answered a linked user's support request: the answer goes to their chats. */
export const supportAnsweredConsumer = (deps: BotDeps): BotConsumer<'support.answered'> => ({
  event: 'support.answered',
  async handle(trx, event) {
    const { channel, user_id, subject, answer } = event.data;
    if (channel !== 'telegram' || user_id === null) return [];
    return (await chatsRepository(trx).findByUser(user_id)).map((chat) => ({
      chat,
      html: texts.supportAnswer(subject, answer),
    }));
  },
  afterCommit: (_event, notes) => sendNotes(deps, notes),
});

/** Every event the bot reacts to. */
export function botConsumers(deps: BotDeps): Consumer<BotDatabase, EventSchemas>[] {
  return [
    paymentSucceededConsumer(deps),
    paymentCanceledConsumer(deps),
    paymentFailedConsumer(deps),
    paymentRefundedConsumer(deps),
    creditsChangedConsumer(deps),
    accountsLinkedConsumer(deps),
    passwordResetConsumer(deps),
    referralRewardedConsumer(deps),
    supportAnsweredConsumer(deps),
  ];
}
