import { Composer } from 'grammy';
import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { chatModels, modelFor, type Catalog } from '../domain/catalog';
import { creditsPer1000Tokens } from '../domain/prices';
import { onCallback } from '../telegram/callbacks';
import { redraw, reply, type BotContext, type PrivateContext } from '../telegram/context';
import { keyboards } from '../telegram/keyboards';
import { texts } from '../telegram/texts';

/** The list of chat models with their prices, `current` ticked. */
function modelList(catalog: Catalog, current: string) {
  const models = chatModels(catalog);
  return [
    texts.models(models, current, (model) => creditsPer1000Tokens(catalog, model)),
    keyboards.models(models, current),
  ] as const;
}

/** /model and its menu button: the chat models with their prices, and choosing one (the list moves its ✅). */
export function modelFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  async function showModels(ctx: BotContext) {
    const catalog = await deps.catalog.get();
    if (chatModels(catalog).length === 0) return void (await reply(ctx, texts.noModels));
    await reply(ctx, ...modelList(catalog, modelFor(catalog, ctx.account.model)?.model ?? ''));
  }

  feature.command('model', showModels);
  onCallback(feature, 'models', async (ctx) => {
    await ctx.answerCallbackQuery();
    await showModels(ctx);
  });
  onCallback(feature, 'chooseModel', async (ctx, { id }) => {
    const catalog = await deps.catalog.get();
    const model = chatModels(catalog).find((option) => option.id === id);
    if (!model) {
      await ctx.answerCallbackQuery({ text: texts.modelUnavailable, show_alert: true });
      return;
    }
    await chatsRepository(deps.db).setModel(ctx.account.telegramId, model.model);
    await ctx.answerCallbackQuery({ text: `✅ ${model.model}` });
    await redraw(ctx, ...modelList(catalog, model.model));
    await reply(ctx, texts.modelChosen(model.model));
  });
  return feature;
}
