import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { modeFor } from '../domain/catalog';
import { imageTariffNames } from '../domain/facts';
import { welcomeGift } from '../domain/welcome';
import { reply, type PrivateContext } from '../telegram/context';
import { keyboards } from '../telegram/keyboards';
import { texts } from '../telegram/texts';

/** /start (the welcome with the gift and the balance) and /help. */
export function startFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  feature.command('start', async (ctx) => {
    const [balance, catalog, { tariffs }] = await Promise.all([
      deps.services.balance(ctx.account.telegramId),
      deps.catalog.get(),
      deps.services.tariffs(),
    ]);
    const welcome = texts.welcome(
      ctx.from.first_name,
      balance,
      deps.provider.kind === 'sandbox',
      welcomeGift(balance, catalog, ctx.firstContact),
      imageTariffNames(tariffs),
      modeFor(catalog, ctx.account.modeId),
    );
    await reply(ctx, welcome, keyboards.welcome(deps.config.SITE_URL, ctx.account.voiceReplies));
  });
  feature.command('help', (ctx) => reply(ctx, texts.help));
  return feature;
}
