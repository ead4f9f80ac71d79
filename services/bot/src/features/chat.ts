import { Composer } from 'grammy';
import { conversationsRepository } from '../data/conversations.repository';
import type { BotDeps } from '../deps';
import { reply, type PrivateContext } from '../telegram/context';
import { answerWithModel } from '../telegram/model-answer';
import { texts } from '../telegram/texts';

/** The bot's own earlier message the user replied to (its text or caption), if any. */
function repliedBotText(ctx: PrivateContext): string | null {
  const replied = ctx.message?.reply_to_message;
  if (!replied || replied.from?.id !== ctx.me.id) return null;
  return (replied.text ?? replied.caption ?? '').trim() || null;
}

/**
 * The conversation: a text is a question to the user's model (a reply to one of the bot's messages
 * brings that message along), /new starts afresh. Composed last:
 * an unknown command gets the help, and a message of a kind nothing else took is declined.
 */
export function chatFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  feature.command('new', async (ctx) => {
    await conversationsRepository(deps.db).start(ctx.account.userId, 'telegram');
    await reply(ctx, texts.newConversation);
  });
  feature.on('message:text', async (ctx) => {
    const text = ctx.message.text;
    if (text.startsWith('/')) return void (await reply(ctx, texts.help));
    await answerWithModel(deps, ctx, { userMessage: text, content: text, repliedTo: repliedBotText(ctx) });
  });
  feature.on('message', (ctx) => reply(ctx, texts.unsupportedMessage));
  return feature;
}
