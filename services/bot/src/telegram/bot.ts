import { Composer, type MiddlewareFn } from 'grammy';
import type { BotDeps } from '../deps';
import { buyFeature } from '../features/buy';
import { chatFeature } from '../features/chat';
import { imageFeature } from '../features/image';
import { instructionsFeature } from '../features/instructions';
import { linkFeature } from '../features/link';
import { mediaFeature } from '../features/media';
import { modelFeature } from '../features/model';
import { modeFeature } from '../features/mode';
import { preCheckoutFeature, starsFeature } from '../features/stars';
import { promoFeature } from '../features/promo';
import { referralsFeature } from '../features/referrals';
import { settingsFeature } from '../features/settings';
import { startFeature } from '../features/start';
import { supportFeature } from '../features/support';
import { voiceFeature } from '../features/voice';
import { account } from './account';
import type { BotContext, PrivateContext } from './context';

/**
 * The bot's features, composed in private chats after the account middleware and `unblock` (a user
 * who writes has unblocked the bot: ./blocked.ts); the Stars pre-checkout, which belongs to no chat,
 * before them. Order matters where two take the same
 * update: /start link before /start, the receipt e-mail and the awaited personal instructions
 * before the conversation, and the conversation (with its catch-all) last.
 */
export function botFeatures(deps: BotDeps, unblock: MiddlewareFn<PrivateContext>): Composer<BotContext> {
  const bot = new Composer<BotContext>();
  bot.use(preCheckoutFeature(deps));
  bot
    .chatType('private')
    .use(
      account(deps),
      unblock,
      linkFeature(deps),
      startFeature(deps),
      modelFeature(deps),
      modeFeature(deps),
      settingsFeature(deps),
      buyFeature(deps),
      starsFeature(deps),
      supportFeature(deps),
      referralsFeature(deps),
      promoFeature(deps),
      instructionsFeature(deps),
      imageFeature(deps),
      mediaFeature(deps),
      voiceFeature(deps),
      chatFeature(deps),
    );
  return bot;
}
