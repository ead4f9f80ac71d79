import { Composer, type MiddlewareFn } from 'grammy';
import type { BotDeps } from './deps';
import { buyFeature } from './features/buy';
import { chatFeature } from './features/chat';
import { imageFeature } from './features/image';
import { instructionsFeature } from './features/instructions';
import { linkFeature } from './features/link';
import { webFeature } from './features/web';
import { mediaFeature } from './features/media';
import { modelFeature } from './features/model';
import { modeFeature } from './features/mode';
import { preCheckoutFeature, starsFeature } from './features/stars';
import { promoFeature } from './features/promo';
import { referralsFeature } from './features/referrals';
import { newsFeature } from './features/news';
import { settingsFeature } from './features/settings';
import { startFeature } from './features/start';
import { subscriptionFeature } from './features/subscription';
import { supportFeature } from './features/support';
import { voiceFeature } from './features/voice';
import { account } from './telegram/account';
import type { BotContext, PrivateContext, UpdateType } from './telegram/context';

/** A feature and the update types its handlers take: Telegram delivers only the types the bot asks for. */
export interface Feature<C extends BotContext = PrivateContext> {
  name: string;
  updates: readonly UpdateType[];
  make(deps: BotDeps): Composer<C>;
}

const CHAT = ['message', 'callback_query'] as const;

/** The Stars pre-checkout, which belongs to no chat, before the private chats' features. */
export const preCheckout: Feature<BotContext> = {
  name: 'preCheckout',
  updates: ['pre_checkout_query'],
  make: preCheckoutFeature,
};

/**
 * The features of private chats, in order: where two take the same update, /start link before
 * /start, the receipt e-mail and the awaited personal instructions before the conversation, and
 * the conversation (with its catch-all) last.
 */
export const chatFeatures: readonly Feature[] = [
  { name: 'link', updates: CHAT, make: linkFeature },
  { name: 'start', updates: ['message'], make: startFeature },
  { name: 'model', updates: CHAT, make: modelFeature },
  { name: 'mode', updates: CHAT, make: modeFeature },
  { name: 'settings', updates: CHAT, make: settingsFeature },
  { name: 'news', updates: ['callback_query'], make: newsFeature },
  { name: 'buy', updates: CHAT, make: buyFeature },
  { name: 'stars', updates: CHAT, make: starsFeature },
  { name: 'subscription', updates: CHAT, make: subscriptionFeature },
  { name: 'support', updates: ['message'], make: supportFeature },
  { name: 'referrals', updates: ['message'], make: referralsFeature },
  { name: 'promo', updates: ['message'], make: promoFeature },
  { name: 'instructions', updates: CHAT, make: instructionsFeature },
  { name: 'image', updates: CHAT, make: imageFeature },
  { name: 'media', updates: ['message'], make: mediaFeature },
  { name: 'voice', updates: ['message'], make: voiceFeature },
  { name: 'web', updates: CHAT, make: webFeature },
  { name: 'chat', updates: ['message'], make: chatFeature },
];

/**
 * The update types the bot asks Telegram for (`allowed_updates` of getUpdates and setWebhook): those
 * its features take, and no other, so Telegram never sends what nobody reads.
 */
export const ALLOWED_UPDATES: readonly UpdateType[] = [
  ...new Set([preCheckout, ...chatFeatures].flatMap((feature) => feature.updates)),
];

/**
 * The bot's features composed: the pre-checkout, then in private chats the account middleware,
 * `unblock` (a user who writes has unblocked the bot: ./blocked.ts) and `chatFeatures` in order.
 */
export function botFeatures(deps: BotDeps, unblock: MiddlewareFn<PrivateContext>): Composer<BotContext> {
  const bot = new Composer<BotContext>();
  bot.use(preCheckout.make(deps));
  bot.chatType('private').use(account(deps), unblock, ...chatFeatures.map((feature) => feature.make(deps)));
  return bot;
}
