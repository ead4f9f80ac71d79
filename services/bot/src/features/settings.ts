import { Composer } from 'grammy';
import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { onCallback } from '../telegram/callbacks';
import { reply, type BotContext, type PrivateContext } from '../telegram/context';
import { keyboards } from '../telegram/keyboards';
import { buttons, texts } from '../telegram/texts';

/** /settings and the welcome's button: answers also as voice messages, on or off; and the «Новости и акции» switch (./news.ts). */
export function settingsFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();
  const newsOf = async (ctx: BotContext) => (await deps.services.news(ctx.account.telegramId)).news;

  const showSettings = async (ctx: BotContext) => {
    const news = await newsOf(ctx);
    await reply(
      ctx,
      texts.settings(ctx.account.voiceReplies, news),
      keyboards.settings(ctx.account.voiceReplies, news),
    );
  };

  feature.command('settings', showSettings);
  onCallback(feature, 'settings', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showSettings(ctx);
  });
  onCallback(feature, 'voiceReplies', async (ctx, { on }) => {
    await chatsRepository(deps.db).setVoiceReplies(ctx.account.telegramId, on);
    await ctx.answerCallbackQuery({ text: buttons.voiceReplies(on) });
    await reply(ctx, texts.voiceRepliesSet(on), keyboards.settings(on, await newsOf(ctx)));
  });
  return feature;
}
