import { typicalMessageCost, typicalMessagesFor, type BotBalanceResponse } from '@gpt/contracts';
import { modelFor, type Catalog } from './catalog';

/** The welcome grant as /start tells it: the credits and roughly how many messages of the default model they buy. */
export interface WelcomeGift {
  credits: number;
  model: string;
  /** Null when no chat model is active to count in. */
  messages: number | null;
}

/**
 * The gift to announce: on the user's first contact with the bot only (a returning user's /start
 * does not offer it again), and only when the balance holds a welcome grant. A typical message is
 * 500 tokens in and 500 out.
 */
export function welcomeGift(balance: BotBalanceResponse, catalog: Catalog, firstContact: boolean): WelcomeGift | null {
  if (!firstContact || balance.welcome_credits <= 0) return null;
  const model = modelFor(catalog, null);
  return {
    credits: balance.welcome_credits,
    model: model?.model ?? catalog.settings.defaultModel,
    messages: model
      ? typicalMessagesFor(balance.welcome_credits, typicalMessageCost(model, catalog.settings.cost))
      : null,
  };
}
