import { BotPaymentEmailRequest, RENEWAL_CONSENT_VERSION, type CreatePaymentResponse } from '@gpt/contracts';
import { Composer } from 'grammy';
import { isRefusal } from '../clients/services';
import { chatsRepository } from '../data/chats.repository';
import { modeFor } from '../domain/catalog';
import type { BotDeps } from '../deps';
import { onCallback } from '../telegram/callbacks';
import { reply, type BotContext, type PrivateContext } from '../telegram/context';
import { keyboards, subscriptionKeyboards } from '../telegram/keyboards';
import { buttons, COMMANDS, subscriptionTexts, texts } from '../telegram/texts';

/** The bot's commands: they are answered as usual while an e-mail is awaited, and the wait stays. */
const KNOWN_COMMANDS = COMMANDS.map(({ command }) => command);

/**
 * /balance, /buy and their buttons: the balance, the top-up amounts and tariffs, a payment page (a tariff's also
 * with «Продлевать автоматически» after its consent);
 * when billing needs an e-mail for the receipt, text messages are taken as it until one is an
 * e-mail or «Отмена» is pressed (billing cancels a payment left waiting, see docs/bot.md).
 */
export function buyFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();
  const chats = chatsRepository(deps.db);

  async function showBalance(ctx: BotContext) {
    const balance = await deps.services.balance(ctx.account.telegramId);
    const mode = modeFor(await deps.catalog.get(), ctx.account.modeId);
    await reply(ctx, texts.balance(balance, ctx.account.webLinked, mode), keyboards.balance(ctx.account.webLinked));
  }

  async function showBuy(ctx: BotContext) {
    const { tariffs } = await deps.services.tariffs();
    await reply(ctx, texts.buy(tariffs), keyboards.buy(tariffs));
  }

  async function offerPayment(ctx: BotContext, payment: CreatePaymentResponse) {
    if (payment.confirmation_url) {
      await chats.stopAwaiting(ctx.account.telegramId, 'receiptEmail');
      await reply(ctx, texts.payment(payment), keyboards.url(buttons.pay(payment.amount), payment.confirmation_url));
    } else {
      await chats.setAwaiting(ctx.account.telegramId, { kind: 'receiptEmail', paymentId: payment.payment_id });
      await reply(ctx, texts.askEmail, keyboards.cancelEmail());
    }
  }

  async function startPayment(
    ctx: BotContext,
    target: { amount?: string; tariff_id?: number; auto_renew?: boolean; consent_version?: string },
  ) {
    try {
      await offerPayment(ctx, await deps.services.createPayment({ telegram_id: ctx.account.telegramId, ...target }));
    } catch (err) {
      if (!isRefusal(err)) throw err;
      await reply(ctx, texts.paymentFailed(err.message));
    }
  }

  feature.command('balance', showBalance);
  feature.command('buy', showBuy);
  onCallback(feature, 'balance', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showBalance(ctx);
  });
  onCallback(feature, 'buy', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showBuy(ctx);
  });
  onCallback(feature, 'chooseTopUp', async (ctx, { roubles }) => {
    await ctx.answerCallbackQuery();
    await reply(ctx, texts.payWays({ roubles }), keyboards.payWays({ roubles }));
  });
  onCallback(feature, 'chooseTariff', async (ctx, { id }) => {
    await ctx.answerCallbackQuery();
    const { tariffs } = await deps.services.tariffs();
    const tariff = tariffs.find((option) => option.id === id);
    // A tariff removed since /buy was shown: the current choice instead.
    if (!tariff) return void (await showBuy(ctx));
    await reply(ctx, texts.payWays(tariff), keyboards.payWays({ tariffId: id }));
  });
  onCallback(feature, 'cancelEmail', async (ctx) => {
    await ctx.answerCallbackQuery();
    await chats.stopAwaiting(ctx.account.telegramId, 'receiptEmail');
    await reply(ctx, texts.emailCanceled);
  });
  onCallback(feature, 'topUp', async (ctx, { roubles }) => {
    await ctx.answerCallbackQuery();
    await startPayment(ctx, { amount: `${roubles}.00` });
  });
  onCallback(feature, 'buyTariff', async (ctx, { id }) => {
    await ctx.answerCallbackQuery();
    await startPayment(ctx, { tariff_id: id });
  });
  // «Продлевать автоматически» (docs/money.md, Subscriptions): the consent billing renders first, then one press
  // agrees to it and pays with the card saved for renewals.
  onCallback(feature, 'renewTariff', async (ctx, { id }) => {
    await ctx.answerCallbackQuery();
    try {
      const consent = await deps.services.renewalConsent(ctx.account.telegramId, id);
      await reply(ctx, subscriptionTexts.consent(consent.text), subscriptionKeyboards.agree(id));
    } catch (err) {
      if (!isRefusal(err)) throw err;
      await reply(ctx, texts.paymentFailed(err.message));
    }
  });
  onCallback(feature, 'renewAgree', async (ctx, { id }) => {
    await ctx.answerCallbackQuery();
    await startPayment(ctx, { tariff_id: id, auto_renew: true, consent_version: RENEWAL_CONSENT_VERSION });
  });

  // The e-mail for a receipt: any other text but a command is answered as not an e-mail (never sent
  // to the model, so never charged), with «Отмена» to give up.
  feature.on('message:text', async (ctx, next) => {
    const { awaiting } = ctx.account;
    if (awaiting?.kind !== 'receiptEmail' || ctx.hasCommand(KNOWN_COMMANDS)) return next();
    const email = BotPaymentEmailRequest.shape.email.safeParse(ctx.message.text);
    if (!email.success) return void (await reply(ctx, texts.badEmail, keyboards.cancelEmail()));
    try {
      await offerPayment(ctx, await deps.services.supplyEmail(awaiting.paymentId, email.data));
    } catch (err) {
      if (!isRefusal(err)) throw err;
      await chats.stopAwaiting(ctx.account.telegramId, 'receiptEmail');
      await reply(ctx, texts.paymentFailed(err.message));
    }
  });
  return feature;
}
