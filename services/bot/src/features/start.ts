import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { modeFor } from '../domain/catalog';
import { welcomeGift } from '../domain/welcome';
import { reply, type PrivateContext } from '../telegram/context';
import { keyboards } from '../telegram/keyboards';
import { texts } from '../telegram/texts';

/** /start (the welcome with the gift and the balance) and /help. */
export function startFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  feature.command('start', async (ctx) => {
    const [balance, catalog] = await Promise.all([deps.services.balance(ctx.account.telegramId), deps.catalog.get()]);
    await reply(
      ctx,
      texts.welcome(
        ctx.from.first_name,
        balance,
        deps.provider.kind === 'sandbox',
        welcomeGift(balance, catalog),
        modeFor(catalog, ctx.account.modeId),
      ),
      keyboards.welcome(deps.config.SITE_URL, ctx.account.voiceReplies),
    );
  });
  feature.command('help', (ctx) => reply(ctx, texts.help));
  return feature;
}
