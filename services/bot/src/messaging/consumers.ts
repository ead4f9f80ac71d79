import type { BotBalanceResponse, EventData } from '@gpt/contracts';
import type { Consumer, EventSchemas } from '@gpt/kit';
import { chatsRepository } from '../data/chats.repository';
import type { BotDatabase } from '../data/schema';
import type { BotDeps } from '../deps';
import { keyboards } from '../telegram/keyboards';
import { texts } from '../telegram/texts';
import { afterCommitNotes, type AfterCommitNotes } from './notes';
import { passwordResetConsumer } from './password-reset.consumer';

type BotConsumer<K extends keyof EventSchemas & string> = Consumer<BotDatabase, EventSchemas, K>;

/** What a consumer's `before` fetched from another service, by event id, for its `handle` to take once. */
function fetchedBefore<T>() {
  const values = new Map<string, T>();
  return {
    set: (eventId: string, value: T) => values.set(eventId, value),
    take(eventId: string): T | undefined {
      const value = values.get(eventId);
      values.delete(eventId);
      return value;
    },
  };
}

/** Billing confirmed a payment: «Оплата получена: +N кредитов» (or the new tariff) in every chat of the payer. */
export const paymentSucceededConsumer = (
  deps: BotDeps,
  notes: AfterCommitNotes,
  fetched = fetchedBefore<BotBalanceResponse>(),
): BotConsumer<'payment.succeeded'> => ({
  event: 'payment.succeeded',
  // The tariff bought, with its end date, as billing shows it to one of the payer's chats.
  async before(event) {
    const payment = event.data;
    const [chat] = payment.kind === 'tariff' ? await chatsRepository(deps.db).findByUser(payment.user_id) : [];
    if (chat) fetched.set(event.id, await deps.services.balance(chat.telegramId));
  },
  async handle(event, trx) {
    const payment = event.data;
    const out = notes.begin(event.id);
    const balance = fetched.take(event.id);
    for (const chat of await chatsRepository(trx).findByUser(payment.user_id)) {
      out.push({
        chat,
        html: balance
          ? texts.paymentTariff(balance.tariff.name, payment.credits_amount, balance.tariff.end_date)
          : texts.paymentTopUp(payment.credits_amount),
      });
    }
  },
  afterCommit: (event) => notes.send(event.id),
});

/**
 * A payment ended without money: the payer's chats are told, with a button to pay again. The bot
 * knows a user's chats, not where a payment was started, so a linked user hears of site payments
 * too, as of successful ones. A failed payment that never reached a payment page is left out: the
 * bot answered that /buy itself («Не удалось создать платёж»).
 */
function paymentNotPaidConsumer<K extends 'payment.canceled' | 'payment.failed'>(
  type: K,
  notes: AfterCommitNotes,
  say: (payment: EventData<K>) => string | null,
): BotConsumer<K> {
  return {
    event: type,
    async handle(event, trx) {
      const out = notes.begin(event.id);
      const payment = event.data;
      const html = say(payment);
      if (html === null) return;
      for (const chat of await chatsRepository(trx).findByUser(payment.user_id)) {
        out.push({ chat, html, keyboard: keyboards.retryPayment(payment) });
      }
    },
    afterCommit: (event) => notes.send(event.id),
  };
}

export const paymentCanceledConsumer = (notes: AfterCommitNotes) =>
  paymentNotPaidConsumer('payment.canceled', notes, (payment) => texts.paymentCanceled(payment.amount, payment.reason));

export const paymentFailedConsumer = (notes: AfterCommitNotes) =>
  paymentNotPaidConsumer('payment.failed', notes, (payment) =>
    payment.yookassa_payment_id === null ? null : texts.paymentNotCompleted(payment.amount),
  );

/**
 * A balance changed. After a charge that takes the available credits below the threshold, one
 * alert with the top-up button; not again until the balance has been at or above it.
 */
export const creditsChangedConsumer = (
  deps: BotDeps,
  notes: AfterCommitNotes,
  fetched = fetchedBefore<number>(),
): BotConsumer<'credits.changed'> => ({
  event: 'credits.changed',
  async before(event) {
    fetched.set(event.id, (await deps.catalog.get()).settings.lowBalanceThreshold);
  },
  async handle(event, trx) {
    const lowBalanceThreshold = fetched.take(event.id)!;
    const snapshot = event.data;
    const out = notes.begin(event.id);
    const chats = chatsRepository(trx);
    const mine = await chats.findByUser(snapshot.user_id);
    if (mine.length === 0) return;
    const available = snapshot.credits + snapshot.included_credits - snapshot.held_credits;
    for (const chat of mine) {
      if (available >= lowBalanceThreshold) {
        if (chat.lowBalanceAlerted) await chats.setLowBalanceAlerted(chat.telegramId, false);
      } else if (!chat.lowBalanceAlerted && snapshot.reason === 'message_charge') {
        await chats.setLowBalanceAlerted(chat.telegramId, true);
        out.push({ chat, html: texts.lowBalance(available), keyboard: keyboards.topUp() });
      }
    }
  },
  afterCommit: (event) => notes.send(event.id),
});

/** Billing has not merged the linked accounts' balances yet: the event is retried shortly. */
class MergeNotYetApplied extends Error {}

/**
 * The Telegram account joined a web account: its chat now belongs to the survivor, and the bot
 * confirms with the shared balance, once billing shows it (until then the event is retried).
 */
export const accountsLinkedConsumer = (
  deps: BotDeps,
  notes: AfterCommitNotes,
  fetched = fetchedBefore<BotBalanceResponse>(),
): BotConsumer<'accounts.linked'> => ({
  event: 'accounts.linked',
  async before(event) {
    const { telegram_id: telegramId, user_id: userId } = event.data;
    if (!(await chatsRepository(deps.db).find(telegramId))) return;
    const balance = await deps.services.balance(telegramId);
    if (balance.user_id !== userId) throw new MergeNotYetApplied(`billing has not merged ${telegramId} into ${userId}`);
    fetched.set(event.id, balance);
  },
  async handle(event, trx) {
    const out = notes.begin(event.id);
    const { telegram_id: telegramId, user_id: userId } = event.data;
    const balance = fetched.take(event.id);
    const chats = await chatsRepository(trx).repoint(telegramId, userId);
    if (balance) for (const chat of chats) out.push({ chat, html: texts.linked(balance) });
  },
  afterCommit: (event) => notes.send(event.id),
});

export function botConsumers(deps: BotDeps) {
  const notes = afterCommitNotes(deps);
  return [
    paymentSucceededConsumer(deps, notes),
    paymentCanceledConsumer(notes),
    paymentFailedConsumer(notes),
    creditsChangedConsumer(deps, notes),
    accountsLinkedConsumer(deps, notes),
    passwordResetConsumer(notes),
  ];
}
