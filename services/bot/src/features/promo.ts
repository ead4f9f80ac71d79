import { Composer } from 'grammy';
import { isRefusal } from '../clients/services';
import type { BotDeps } from '../deps';
import { reply, type PrivateContext } from '../telegram/context';
import { texts } from '../telegram/texts';

/** /promo КОД: redeems a promo code for the person; billing's refusals are told in its words, guesses are slowed down. */
export function promoFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();
  feature.command('promo', async (ctx) => {
    const code = ctx.match.trim();
    if (code === '') return void (await reply(ctx, texts.promoUsage));
    const wait = await deps.promoLimiter.consume(String(ctx.account.telegramId));
    if (wait > 0) return void (await reply(ctx, texts.promoTooMany(wait)));
    try {
      const redeemed = await deps.services.redeemPromo(ctx.account.telegramId, code);
      await reply(ctx, texts.promoRedeemed(redeemed.message));
    } catch (err) {
      if (!isRefusal(err)) throw err;
      await reply(ctx, texts.promoRefused(err.message));
    }
  });
  return feature;
}
