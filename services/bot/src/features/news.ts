import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { onCallback } from '../telegram/callbacks';
import { reply, type PrivateContext } from '../telegram/context';
import { keyboards } from '../telegram/keyboards';
import { buttons, texts } from '../telegram/texts';

/**
 * Broadcasts as the user meets them (docs/bot.md, Broadcasts): the «Новости и акции» switch of
 * /settings (kept by auth, the same switch as the site's account page) and a broadcast's «Открыть чат».
 */
export function newsFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();
  onCallback(feature, 'news', async (ctx, { on }) => {
    const { news } = await deps.services.setNews(ctx.account.telegramId, on);
    await ctx.answerCallbackQuery({ text: buttons.news(news) });
    await reply(ctx, texts.newsSet(news), keyboards.settings(ctx.account.voiceReplies, news));
  });
  onCallback(feature, 'openChat', async (ctx) => {
    await ctx.answerCallbackQuery();
    await reply(ctx, texts.openChat);
  });
  return feature;
}
