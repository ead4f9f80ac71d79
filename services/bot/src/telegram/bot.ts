import { Composer } from 'grammy';
import type { BotDeps } from '../deps';
import { buyFeature } from '../features/buy';
import { chatFeature } from '../features/chat';
import { imageFeature } from '../features/image';
import { instructionsFeature } from '../features/instructions';
import { linkFeature } from '../features/link';
import { mediaFeature } from '../features/media';
import { modelFeature } from '../features/model';
import { modeFeature } from '../features/mode';
import { settingsFeature } from '../features/settings';
import { startFeature } from '../features/start';
import { voiceFeature } from '../features/voice';
import { account } from './account';
import type { BotContext } from './context';

/**
 * The bot's features, composed in private chats after the account middleware. Order matters
 * where two take the same update: /start link before /start, the receipt e-mail and the awaited
 * personal instructions before the conversation, and the conversation (with its catch-all) last.
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
      modeFeature(deps),
      settingsFeature(deps),
      buyFeature(deps),
      instructionsFeature(deps),
      imageFeature(deps),
      mediaFeature(deps),
      voiceFeature(deps),
      chatFeature(deps),
    );
  return bot;
}
