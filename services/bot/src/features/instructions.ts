import { Composer } from 'grammy';
import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { INSTRUCTIONS_MAX_CHARS } from '../domain/conversation';
import { onCallback } from '../telegram/callbacks';
import { reply, type BotContext, type PrivateContext } from '../telegram/context';
import { keyboards } from '../telegram/keyboards';
import { texts } from '../telegram/texts';

/**
 * /instructions: the user's own instructions, added after the mode's prompt in every call. The
 * first time (and after «Изменить») the next text is taken as them; later /instructions shows them
 * with «Изменить» and «Удалить». Composed before the conversation, which would answer that text.
 */
export function instructionsFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();
  const chats = chatsRepository(deps.db);

  async function askForInstructions(ctx: BotContext) {
    await chats.setAwaiting(ctx.account.telegramId, { kind: 'instructions' });
    await reply(ctx, texts.instructionsAsk);
  }

  feature.command('instructions', async (ctx) => {
    const { instructions } = ctx.account;
    if (!instructions) return askForInstructions(ctx);
    await reply(ctx, texts.instructionsShow(instructions), keyboards.instructions());
  });
  onCallback(feature, 'editInstructions', async (ctx) => {
    await ctx.answerCallbackQuery();
    await askForInstructions(ctx);
  });
  onCallback(feature, 'deleteInstructions', async (ctx) => {
    await chats.setInstructions(ctx.account.telegramId, null);
    await ctx.answerCallbackQuery();
    await reply(ctx, texts.instructionsDeleted);
  });

  feature.on('message:text', async (ctx, next) => {
    if (ctx.account.awaiting?.kind !== 'instructions') return next();
    const text = ctx.message.text.trim();
    if (text === '/cancel') {
      await chats.stopAwaiting(ctx.account.telegramId, 'instructions');
      return void (await reply(ctx, texts.instructionsCanceled));
    }
    // Another command leaves the question open and does what it says.
    if (text.startsWith('/')) return next();
    if (text.length > INSTRUCTIONS_MAX_CHARS) {
      return void (await reply(ctx, texts.instructionsTooLong(text.length, INSTRUCTIONS_MAX_CHARS)));
    }
    await chats.setInstructions(ctx.account.telegramId, text);
    await chats.stopAwaiting(ctx.account.telegramId, 'instructions');
    await reply(ctx, texts.instructionsSaved);
  });
  return feature;
}
