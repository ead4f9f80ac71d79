import { Composer } from 'grammy';
import { isRefusal } from '../clients/services';
import type { BotDeps } from '../deps';
import { onCallback } from '../telegram/callbacks';
import { reply, type BotContext, type PrivateContext } from '../telegram/context';
import { subscriptionKeyboards } from '../telegram/keyboards';
import { subscriptionTexts } from '../telegram/texts';

/**
 * /subscription (docs/money.md, Subscriptions): the user's renewing tariffs with a button to cancel each (a Stars
 * subscription at Telegram first, `editUserStarSubscription`, and only then in billing, so a local flag never hides a
 * live charge) or to turn a canceled Stars subscription back on before its end; with none renewing, «🔁 Подписка за
 * звёзды» of each paid tariff, an invoice link Telegram renews every 30 days.
 */
export function subscriptionFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  async function show(ctx: BotContext) {
    const [{ subscriptions }, { tariffs }] = await Promise.all([
      deps.services.subscriptions(ctx.account.telegramId),
      deps.services.tariffs(),
    ]);
    const paid = tariffs.filter((tariff) => Number(tariff.monthly_price) > 0);
    const renewing = subscriptions.some((subscription) => ['active', 'past_due'].includes(subscription.status));
    const text = [
      subscriptions.length > 0 ? subscriptionTexts.list(subscriptions) : subscriptionTexts.none,
      ...(renewing ? [] : ['', subscriptionTexts.offer]),
    ].join('\n');
    await reply(ctx, text, subscriptionKeyboards.manage(subscriptions, paid));
  }

  /** The subscription of this user the button names, as billing lists it now. */
  async function own(ctx: BotContext, id: number) {
    const { subscriptions } = await deps.services.subscriptions(ctx.account.telegramId);
    return subscriptions.find((subscription) => subscription.id === id);
  }

  /** Telegram first (for Stars), then billing; a refusal of either is told, nothing is half done silently. */
  async function change(ctx: BotContext, id: number, resume: boolean) {
    const subscription = await own(ctx, id);
    if (!subscription) return show(ctx);
    if (subscription.method === 'telegram_stars' && subscription.telegram_charge_id) {
      try {
        await ctx.api.editUserStarSubscription(ctx.account.telegramId, subscription.telegram_charge_id, !resume);
      } catch (err) {
        deps.logger.warn({ err, subscription: id }, 'Telegram refused to change a Stars subscription');
        return void (await reply(ctx, subscriptionTexts.telegramRefused));
      }
    }
    try {
      const changed = resume
        ? await deps.services.resumeSubscription(id, ctx.account.telegramId)
        : await deps.services.cancelSubscription(id, ctx.account.telegramId);
      await reply(ctx, resume ? subscriptionTexts.resumed(changed) : subscriptionTexts.canceled(changed));
    } catch (err) {
      if (!isRefusal(err)) throw err;
      await reply(ctx, subscriptionTexts.failed(err.message));
    }
  }

  feature.command('subscription', show);
  onCallback(feature, 'cancelSubscription', async (ctx, { id }) => {
    await ctx.answerCallbackQuery();
    await change(ctx, id, false);
  });
  onCallback(feature, 'resumeSubscription', async (ctx, { id }) => {
    await ctx.answerCallbackQuery();
    await change(ctx, id, true);
  });
  onCallback(feature, 'starsSubscription', async (ctx, { id }) => {
    await ctx.answerCallbackQuery();
    let invoice;
    try {
      invoice = await deps.services.starInvoice({
        telegram_id: ctx.account.telegramId,
        tariff_id: id,
        subscription: true,
      });
    } catch (err) {
      if (!isRefusal(err)) throw err;
      return void (await reply(ctx, subscriptionTexts.failed(err.message)));
    }
    const link = await ctx.api.createInvoiceLink(
      invoice.title,
      invoice.description,
      invoice.payload,
      '',
      invoice.currency,
      [{ label: invoice.label, amount: invoice.star_amount }],
      { subscription_period: invoice.subscription_period ?? undefined },
    );
    const { tariffs } = await deps.services.tariffs();
    const name = tariffs.find((tariff) => tariff.id === id)?.name ?? '';
    await reply(ctx, subscriptionTexts.starsLink(name, invoice.star_amount), subscriptionKeyboards.pay(link));
  });
  return feature;
}
