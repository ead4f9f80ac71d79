import { Composer, InputFile } from 'grammy';
import type { BotDeps } from '../deps';
import { draw } from '../domain/draw';
import { imageTariffNames } from '../domain/facts';
import { onCallback } from '../telegram/callbacks';
import { reply, type PrivateContext } from '../telegram/context';
import { keyboards } from '../telegram/keyboards';
import { withinLimit } from '../telegram/model-answer';
import { texts } from '../telegram/texts';

/** /image <описание> and its menu button: a picture drawn by the image model, on tariffs that include it. */
export function imageFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  feature.command('image', async (ctx) => {
    const prompt = ctx.match.trim();
    if (!prompt) return void (await reply(ctx, texts.imageUsage));
    const catalog = await deps.catalog.get();
    if (!(await withinLimit(deps, ctx, catalog))) return;
    const outcome = await draw(deps, { chat: ctx.account, catalog, prompt }, async () => {
      await ctx.api.sendChatAction(ctx.account.chatId, 'upload_photo').catch(() => undefined);
    });
    switch (outcome.kind) {
      case 'drawn':
        await ctx.api.sendPhoto(ctx.account.chatId, new InputFile(outcome.png, 'image.png'), {
          caption: texts.imageCaption(prompt),
          parse_mode: 'HTML',
        });
        return;
      case 'not_in_tariff': {
        const { tariffs } = await deps.services.tariffs();
        return void (await reply(ctx, texts.imageNotInTariff(imageTariffNames(tariffs)), keyboards.topUp()));
      }
      case 'unavailable':
        return void (await reply(ctx, texts.noImageModel));
      case 'insufficient':
        return void (await reply(ctx, texts.insufficient(outcome.needed, outcome.available), keyboards.topUp()));
      case 'failed':
        return void (await reply(ctx, texts.modelFailed));
    }
  });
  onCallback(feature, 'imageUsage', async (ctx) => {
    await ctx.answerCallbackQuery();
    await reply(ctx, texts.imageUsage);
  });
  return feature;
}
