import {
  COST_SETTING_KEYS,
  DEFAULT_BOT_SETTINGS,
  DEFAULT_COST_SETTINGS,
  messageCost,
  type AiModel,
  type BotSettingKey,
  type CostSettings,
} from '@gpt/contracts';
import type { ServiceClients } from '../clients/services';

/** The bot's system settings (admin-editable in /admin/sysvals); one missing or broken counts as its seeded default. */
export interface BotSettings {
  defaultModel: string;
  visionModel: string;
  imageModel: string;
  messagesPerMinute: number;
  lowBalanceThreshold: number;
  maxOutputTokens: number;
  contextTokenBudget: number;
  cost: CostSettings;
}

/** A whole-number setting, at least `min`; its seeded default when missing or broken. */
function wholeNumber(stored: Record<string, string>, key: BotSettingKey, min: number): number {
  const value = stored[key]?.trim() ?? '';
  return Math.max(min, Number(/^\d{1,9}$/.test(value) ? value : DEFAULT_BOT_SETTINGS[key]));
}

function parseSettings(stored: Record<string, string>): BotSettings {
  const text = (key: BotSettingKey) => stored[key]?.trim() || DEFAULT_BOT_SETTINGS[key];
  const cost = { ...DEFAULT_COST_SETTINGS };
  for (const key of COST_SETTING_KEYS) if (stored[key]) cost[key] = stored[key];
  return {
    defaultModel: text('default_model'),
    visionModel: text('vision_model'),
    imageModel: text('image_model'),
    messagesPerMinute: wholeNumber(stored, 'bot_messages_per_minute', 1),
    lowBalanceThreshold: wholeNumber(stored, 'low_balance_threshold', 0),
    maxOutputTokens: wholeNumber(stored, 'max_output_tokens', 16),
    contextTokenBudget: wholeNumber(stored, 'context_token_budget', 256),
    cost,
  };
}

export interface Catalog {
  settings: BotSettings;
  /** Active models by name. */
  models: Map<string, AiModel>;
}

/** The models and settings chat-history owns, read through its bot routes and kept for a few seconds. */
export function catalogReader(services: ServiceClients, ttlMs: number) {
  let cached: { at: number; value: Promise<Catalog> } | undefined;
  const load = async (): Promise<Catalog> => {
    const [{ models }, settings] = await Promise.all([services.models(), services.settings()]);
    return {
      settings: parseSettings(settings),
      models: new Map(models.filter((model) => model.is_active).map((model) => [model.model, model])),
    };
  };
  return {
    get(): Promise<Catalog> {
      if (!cached || Date.now() - cached.at >= ttlMs) {
        const value = load();
        cached = { at: Date.now(), value };
        value.catch(() => (cached = undefined));
      }
      return cached.value;
    },
  };
}
export type CatalogReader = ReturnType<typeof catalogReader>;

/** Chat models a user may pick (image models draw, they do not talk). */
export const chatModels = (catalog: Catalog) => [...catalog.models.values()].filter((model) => !model.image_price);

/** The user's model if it is still active, else the default, else any active chat model. */
export function modelFor(catalog: Catalog, chosen: string | null): AiModel | undefined {
  const usable = (name: string | null) => {
    const model = name ? catalog.models.get(name) : undefined;
    return model && !model.image_price ? model : undefined;
  };
  return usable(chosen) ?? usable(catalog.settings.defaultModel) ?? chatModels(catalog)[0];
}

/** Credits of a call with these token counts and images at the model's prices (the formula chat-history charges by). */
export function creditsFor(
  catalog: Catalog,
  model: AiModel,
  usage: { inputTokens: number; outputTokens: number; images?: number },
): number {
  return Number(
    messageCost({
      status: 'success',
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      image_count: usage.images ?? 0,
      input_price_per_1m: model.input_price_per_1m,
      output_price_per_1m: model.output_price_per_1m,
      image_price: model.image_price,
      settings: catalog.settings.cost,
    }).cost,
  );
}
