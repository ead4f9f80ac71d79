import { TELEGRAM_SIGN_IN_PAGE } from '@gpt/contracts';
import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { linkLifetimeMinutes } from '../domain/facts';
import { onCallback } from '../telegram/callbacks';
import { reply, type BotContext, type PrivateContext } from '../telegram/context';
import { keyboards } from '../telegram/keyboards';
import { buttons, texts } from '../telegram/texts';

/**
 * /web and «🌐 Открыть в браузере»: a single-use link (auth issues it, valid for minutes) that signs the
 * user in on the site as themselves, where the web chat continues the same conversations.
 */
export function webFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  async function showWebLink(ctx: BotContext) {
    const link = await deps.services.signInLink(ctx.account.telegramId);
    const url = `${deps.config.SITE_URL}${TELEGRAM_SIGN_IN_PAGE}/${link.token}`;
    await reply(ctx, texts.webLink(linkLifetimeMinutes(link)), keyboards.url(buttons.openInBrowser, url));
  }

  feature.command('web', showWebLink);
  onCallback(feature, 'openWeb', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showWebLink(ctx);
  });
  return feature;
}
