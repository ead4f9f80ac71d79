import { Composer } from 'grammy';
import { ServiceCallError } from '../clients/services';
import type { BotDeps } from '../deps';
import { onCallback } from '../telegram/callbacks';
import { reply, type BotContext, type PrivateContext } from '../telegram/context';
import { texts } from '../telegram/texts';

/**
 * Paying in Telegram Stars: a /buy button asks billing for an invoice of the package or tariff
 * (priced from `star_rate_rub`; its payload is billing's id of the quote) and sends it (XTR, an
 * empty provider token, exactly one price); the `successful_payment` goes to billing, which records
 * and credits it once per charge id and announces it («Оплата получена», as for cards).
 */
export function starsFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  async function sendInvoice(ctx: BotContext, target: { amount?: string; tariff_id?: number }) {
    let invoice;
    try {
      invoice = await deps.services.starInvoice({ telegram_id: ctx.account.telegramId, ...target });
    } catch (err) {
      if (!(err instanceof ServiceCallError) || err.status >= 500) throw err;
      return void (await reply(ctx, texts.starsInvoiceFailed(err.message)));
    }
    await ctx.api.sendInvoice(
      ctx.account.chatId,
      invoice.title,
      invoice.description,
      invoice.payload,
      invoice.currency,
      [{ label: invoice.label, amount: invoice.star_amount }],
      { provider_token: '' },
    );
  }

  onCallback(feature, 'starsTopUp', async (ctx, { roubles }) => {
    await ctx.answerCallbackQuery();
    await sendInvoice(ctx, { amount: `${roubles}.00` });
  });
  onCallback(feature, 'starsTariff', async (ctx, { id }) => {
    await ctx.answerCallbackQuery();
    await sendInvoice(ctx, { tariff_id: id });
  });

  feature.on('message:successful_payment', async (ctx) => {
    const payment = ctx.message.successful_payment;
    try {
      await deps.services.starPayment({
        telegram_id: ctx.account.telegramId,
        invoice_payload: payment.invoice_payload,
        currency: payment.currency,
        total_amount: payment.total_amount,
        telegram_payment_charge_id: payment.telegram_payment_charge_id,
        provider_payment_charge_id: payment.provider_payment_charge_id,
        // A Stars subscription's payment: the first or a renewal, with the end of the period it pays.
        ...(payment.is_recurring
          ? {
              is_recurring: true,
              is_first_recurring: payment.is_first_recurring === true,
              subscription_expiration_date: payment.subscription_expiration_date,
            }
          : {}),
      });
    } catch (err) {
      if (!(err instanceof ServiceCallError) || err.status >= 500) throw err;
      deps.logger.error({ err, payment }, 'billing did not record a Stars payment');
      await reply(ctx, texts.starsNotRecorded);
    }
  });
  return feature;
}

/**
 * Telegram's `pre_checkout_query` (it comes outside any chat): billing checks the payload, the
 * price and the user; the bot answers within Telegram's 10 s, declining in Russian when billing
 * says no or cannot be asked.
 */
export function preCheckoutFeature(deps: BotDeps): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  feature.on('pre_checkout_query', async (ctx) => {
    const query = ctx.preCheckoutQuery;
    let verdict: { ok: boolean; error_message?: string };
    try {
      verdict = await deps.services.starPreCheckout({
        telegram_id: query.from.id,
        invoice_payload: query.invoice_payload,
        currency: query.currency,
        total_amount: query.total_amount,
      });
    } catch (err) {
      deps.logger.error({ err, query }, 'the pre-checkout could not be checked; declined');
      verdict = { ok: false, error_message: texts.preCheckoutUnchecked };
    }
    await ctx.answerPreCheckoutQuery(verdict.ok, verdict.ok ? undefined : { error_message: verdict.error_message });
  });
  return feature;
}
