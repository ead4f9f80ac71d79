import type { Consumer, EventSchemas } from '@gpt/kit';
import { chatsRepository, type Chat } from '../data/chats.repository';
import type { BotDatabase } from '../data/schema';
import type { BotDeps } from '../deps';
import { sendWithButtons } from '../telegram/handlers';
import { keyboards } from '../telegram/keyboards';
import { texts } from '../telegram/texts';
import { passwordResetConsumer } from './password-reset.consumer';

type BotConsumer<K extends keyof EventSchemas & string> = Consumer<BotDatabase, EventSchemas, K>;

/**
 * Tells a user something in Telegram. A user who blocked the bot, or Telegram being off, is no
 * reason to redeliver the event: the failure is logged and the event counts as handled.
 */
async function notify(deps: BotDeps, chat: Chat, html: string, keyboard?: Parameters<typeof sendWithButtons>[3]) {
  const api = deps.telegram.api();
  if (!api) return;
  try {
    await sendWithButtons(api, chat.chatId, html, keyboard);
  } catch (err) {
    deps.logger.warn({ err, telegramId: chat.telegramId }, 'could not notify the user in Telegram');
  }
}

/** Billing confirmed a payment: «Оплата получена: +N кредитов» (or the new tariff) in every chat of the payer. */
export const paymentSucceededConsumer = (deps: BotDeps): BotConsumer<'payment.succeeded'> => ({
  event: 'payment.succeeded',
  async handle(event, trx) {
    const payment = event.data;
    for (const chat of await chatsRepository(trx).findByUser(payment.user_id)) {
      if (payment.kind === 'topup') {
        await notify(deps, chat, texts.paymentTopUp(payment.credits_amount));
        continue;
      }
      const balance = await deps.api.balance(chat.telegramId);
      await notify(
        deps,
        chat,
        texts.paymentTariff(balance.tariff.name, payment.credits_amount, balance.tariff.end_date),
      );
    }
  },
});

/**
 * A balance changed. After a charge that takes the available credits below the threshold, one
 * alert with the top-up button; not again until the balance has been at or above it.
 */
export const creditsChangedConsumer = (deps: BotDeps): BotConsumer<'credits.changed'> => ({
  event: 'credits.changed',
  async handle(event, trx) {
    const snapshot = event.data;
    const chats = chatsRepository(trx);
    const mine = await chats.findByUser(snapshot.user_id);
    if (mine.length === 0) return;
    const available = snapshot.credits + snapshot.included_credits - snapshot.held_credits;
    const { lowBalanceThreshold } = (await deps.catalog.get()).settings;
    for (const chat of mine) {
      if (available >= lowBalanceThreshold) {
        if (chat.lowBalanceAlerted) await chats.setLowBalanceAlerted(chat.telegramId, false);
      } else if (!chat.lowBalanceAlerted && snapshot.reason === 'message_charge') {
        await chats.setLowBalanceAlerted(chat.telegramId, true);
        await notify(deps, chat, texts.lowBalance(available), keyboards.topUp());
      }
    }
  },
});

/** Billing has not merged the linked accounts' balances yet: the event is retried shortly. */
class MergeNotYetApplied extends Error {}

/**
 * The Telegram account joined a web account: its chat now belongs to the survivor, and the bot
 * confirms with the shared balance, once billing shows it (until then the event is retried).
 */
export const accountsLinkedConsumer = (deps: BotDeps): BotConsumer<'accounts.linked'> => ({
  event: 'accounts.linked',
  async handle(event, trx) {
    const { telegram_id: telegramId, user_id: userId } = event.data;
    const chats = await chatsRepository(trx).repoint(telegramId, userId);
    if (chats.length === 0) return;
    const balance = await deps.api.balance(telegramId);
    if (balance.user_id !== userId) throw new MergeNotYetApplied(`billing has not merged ${telegramId} into ${userId}`);
    for (const chat of chats) await notify(deps, chat, texts.linked(balance));
  },
});

export const botConsumers = (deps: BotDeps) => [
  paymentSucceededConsumer(deps),
  creditsChangedConsumer(deps),
  accountsLinkedConsumer(deps),
  passwordResetConsumer(deps),
];
