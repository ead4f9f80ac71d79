import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { reply, type PrivateContext } from '../telegram/context';
import { texts } from '../telegram/texts';

/**
 * /paysupport (Telegram requires it of bots that take payments): how to get help, the user's last
 * payments and how refunds work; /terms: the site's public offer.
 */
export function supportFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();
  feature.command('paysupport', async (ctx) => {
    const { payments } = await deps.services.payments(ctx.account.telegramId);
    await reply(ctx, texts.paySupport(deps.config.SITE_URL, payments));
  });
  feature.command('terms', (ctx) => reply(ctx, texts.terms(deps.config.SITE_URL)));
  return feature;
}
