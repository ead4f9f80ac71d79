import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { buyFeature } from '../features/buy';
import { chatFeature } from '../features/chat';
import { imageFeature } from '../features/image';
import { linkFeature } from '../features/link';
import { mediaFeature } from '../features/media';
import { modelFeature } from '../features/model';
import { startFeature } from '../features/start';
import { account } from './account';
import type { BotContext } from './context';

/**
 * The bot's features, composed in private chats after the account middleware. Order matters
 * where two take the same update: /start link before /start, the receipt e-mail before the
 * conversation, and the conversation (with its catch-all) last.
 */
export function botFeatures(deps: BotDeps): Composer<BotContext> {
  const bot = new Composer<BotContext>();
  bot
    .chatType('private')
    .use(
      account(deps),
      linkFeature(deps),
      startFeature(deps),
      modelFeature(deps),
      buyFeature(deps),
      imageFeature(deps),
      mediaFeature(deps),
      chatFeature(deps),
    );
  return bot;
}
