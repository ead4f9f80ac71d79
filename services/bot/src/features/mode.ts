import { Composer } from 'grammy';
import { chatsRepository } from '../data/chats.repository';
import { conversationsRepository } from '../data/conversations.repository';
import type { BotDeps } from '../deps';
import { modeFor } from '../domain/catalog';
import { onCallback } from '../telegram/callbacks';
import { redraw, reply, type BotContext, type PrivateContext } from '../telegram/context';
import { keyboards } from '../telegram/keyboards';
import { texts } from '../telegram/texts';

/**
 * /mode and its menu button: the active chat modes with their descriptions, and choosing one (a new
 * conversation; the list moves its ✅).
 */
export function modeFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  async function showModes(ctx: BotContext) {
    const catalog = await deps.catalog.get();
    if (catalog.modes.length === 0) return void (await reply(ctx, texts.noModes));
    const current = modeFor(catalog, ctx.account.modeId);
    await reply(ctx, texts.modes(catalog.modes, current), keyboards.modes(catalog.modes, current));
  }

  feature.command('mode', showModes);
  onCallback(feature, 'modes', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showModes(ctx);
  });
  onCallback(feature, 'chooseMode', async (ctx, { id }) => {
    const { modes } = await deps.catalog.get();
    const mode = modes.find((option) => option.id === id);
    if (!mode) {
      await ctx.answerCallbackQuery({ text: texts.modeUnavailable, show_alert: true });
      return;
    }
    // A new mode starts a fresh conversation: the earlier turns were answered in another role.
    await chatsRepository(deps.db).setMode(ctx.account.telegramId, mode.id);
    await conversationsRepository(deps.db).start(ctx.account.userId, 'telegram');
    await ctx.answerCallbackQuery({ text: `✅ ${mode.name}` });
    await redraw(ctx, texts.modes(modes, mode), keyboards.modes(modes, mode));
    await reply(ctx, texts.modeChosen(mode));
  });
  return feature;
}
