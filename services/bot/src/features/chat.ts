import { Composer } from 'grammy';
import { chatsRepository } from '../data/chats.repository';
import type { BotDeps } from '../deps';
import { reply, type PrivateContext } from '../telegram/context';
import { answerWithModel } from '../telegram/model-answer';
import { texts } from '../telegram/texts';

/**
 * The conversation: a text is a question to the user's model, /new starts afresh. Composed last:
 * an unknown command gets the help, and a message of a kind nothing else took is declined.
 */
export function chatFeature(deps: BotDeps): Composer<PrivateContext> {
  const feature = new Composer<PrivateContext>();

  feature.command('new', async (ctx) => {
    await chatsRepository(deps.db).startConversation(ctx.account.telegramId);
    await reply(ctx, texts.newConversation);
  });
  feature.on('message:text', async (ctx) => {
    const text = ctx.message.text;
    if (text.startsWith('/')) return void (await reply(ctx, texts.help));
    await answerWithModel(deps, ctx, { userMessage: text, content: text });
  });
  feature.on('message', (ctx) => reply(ctx, texts.unsupportedMessage));
  return feature;
}
