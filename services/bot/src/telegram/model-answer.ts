import type { BotDeps } from '../deps';
import { ask, type AskInput } from '../domain/ask';
import { modelFor, type Catalog } from '../domain/catalog';
import { answerMessage } from './answer-message';
import { reply, type BotContext } from './context';
import { keyboards } from './keyboards';
import { texts } from './texts';

/** Counts a paid request against the per-minute limit; says so and answers false when over it. */
export async function withinLimit(deps: BotDeps, ctx: BotContext, catalog: Catalog): Promise<boolean> {
  const wait = await deps.limiter.consume(ctx.account.userId, catalog.settings.messagesPerMinute);
  if (wait > 0) await reply(ctx, texts.rateLimited(wait));
  return wait === 0;
}

/** Asks the user's model (or `model`) in their current conversation and streams its answer into the chat. */
export async function answerWithModel(
  deps: BotDeps,
  ctx: BotContext,
  input: Omit<AskInput, 'speaker' | 'door' | 'catalog' | 'model'> & {
    model?: string;
  },
): Promise<void> {
  const catalog = await deps.catalog.get();
  if (!(await withinLimit(deps, ctx, catalog))) return;
  const model = modelFor(catalog, input.model ?? ctx.account.model);
  if (!model) return void (await reply(ctx, texts.noModels));
  const sink = answerMessage({
    telegram: ctx.api,
    chatId: ctx.account.chatId,
    intervalMs: deps.config.BOT_STREAM_EDIT_INTERVAL_MS,
    logger: deps.logger,
  });
  const outcome = await ask(deps, { ...input, speaker: ctx.account, door: 'telegram', catalog, model }, sink);
  if (outcome.kind === 'busy') await reply(ctx, texts.answerRunning);
  if (outcome.kind === 'insufficient') {
    await reply(ctx, texts.insufficient(outcome.needed, outcome.available), keyboards.topUp());
  }
  if (outcome.kind === 'unheard')
    await reply(ctx, outcome.reason === 'empty' ? texts.voiceEmpty : texts.voiceUnreadable);
}
