import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { linkLifetimeMinutes } from '../domain/facts';
import { LINK_START_PAYLOAD } from '../telegram/account';
import { onCallback } from '../telegram/callbacks';
import { reply, type BotContext, type PrivateContext } from '../telegram/context';
import { keyboards } from '../telegram/keyboards';
import { buttons, texts } from '../telegram/texts';

/** /link, its menu button and the site's «Связать» deep link (/start link): a one-time link to join the web account. */
export function linkFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  async function showLink(ctx: BotContext) {
    if (ctx.account.webLinked) return void (await reply(ctx, texts.alreadyLinked));
    const link = await deps.services.linkToken(ctx.account.telegramId);
    await reply(ctx, texts.link(linkLifetimeMinutes(link)), keyboards.url(buttons.link, link.url));
  }

  feature.command('start', (ctx, next) => (ctx.match === LINK_START_PAYLOAD ? showLink(ctx) : next()));
  feature.command('link', showLink);
  onCallback(feature, 'link', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showLink(ctx);
  });
  return feature;
}
