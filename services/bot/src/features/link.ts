import { LINK_PHOTO_MAX_CHARS } from '@gpt/contracts';
import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { linkLifetimeMinutes } from '../domain/facts';
import { LINK_START_PAYLOAD } from '../telegram/account';
import { onCallback } from '../telegram/callbacks';
import { reply, type BotContext, type PrivateContext } from '../telegram/context';
import { downloadFile } from '../telegram/download';
import { keyboards } from '../telegram/keyboards';
import { buttons, texts } from '../telegram/texts';

/** The smallest size of a profile photo the link page shows crisp (it draws it 64 px wide). */
const PHOTO_MIN_SIDE = 128;

/**
 * The user's newest profile photo as a JPEG data URL, for the link page to show whose Telegram asks; null when
 * they have none, it is too large to carry, or Telegram cannot be asked (the link works without it).
 */
async function profilePhoto(deps: BotDeps, ctx: BotContext): Promise<string | null> {
  try {
    const { photos } = await ctx.api.getUserProfilePhotos(ctx.account.telegramId, { limit: 1 });
    const sizes = photos[0] ?? [];
    const size = sizes.find((photo) => Math.min(photo.width, photo.height) >= PHOTO_MIN_SIDE) ?? sizes.at(-1);
    if (!size) return null;
    const url = `data:image/jpeg;base64,${(await downloadFile(deps.telegram, ctx, size.file_id)).toString('base64')}`;
    return url.length <= LINK_PHOTO_MAX_CHARS ? url : null;
  } catch (err) {
    deps.logger.warn({ err }, 'the profile photo for the link page could not be read');
    return null;
  }
}

/** /link, its menu button and the site's «Связать» deep link (/start link): a one-time link to join the web account. */
export function linkFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  async function showLink(ctx: BotContext) {
    if (ctx.account.webLinked) return void (await reply(ctx, texts.alreadyLinked));
    const link = await deps.services.linkToken(ctx.account.telegramId, await profilePhoto(deps, ctx));
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
