import { COST_SETTING_KEYS, DEFAULT_COST_SETTINGS, messageCost, type AiModel, type CostSettings } from '@gpt/contracts';
import type { ServiceClients } from '../clients/services';

/** The bot's system settings (admin-editable in /admin/sysvals), with the values used when one is missing or broken. */
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

const DEFAULTS: Omit<BotSettings, 'cost'> = {
  defaultModel: 'gpt-4o-mini',
  visionModel: 'gpt-4o-mini',
  imageModel: 'gpt-image-1',
  messagesPerMinute: 20,
  lowBalanceThreshold: 500,
  maxOutputTokens: 1024,
  contextTokenBudget: 6000,
};

const wholeNumber = (value: string | undefined, fallback: number) =>
  value !== undefined && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : fallback;

function parseSettings(stored: Record<string, string>): BotSettings {
  const text = (key: string, fallback: string) => stored[key]?.trim() || fallback;
  const cost = { ...DEFAULT_COST_SETTINGS };
  for (const key of COST_SETTING_KEYS) if (stored[key]) cost[key] = stored[key];
  return {
    defaultModel: text('default_model', DEFAULTS.defaultModel),
    visionModel: text('vision_model', DEFAULTS.visionModel),
    imageModel: text('image_model', DEFAULTS.imageModel),
    messagesPerMinute: Math.max(1, wholeNumber(stored.bot_messages_per_minute, DEFAULTS.messagesPerMinute)),
    lowBalanceThreshold: wholeNumber(stored.low_balance_threshold, DEFAULTS.lowBalanceThreshold),
    maxOutputTokens: Math.max(16, wholeNumber(stored.max_output_tokens, DEFAULTS.maxOutputTokens)),
    contextTokenBudget: Math.max(256, wholeNumber(stored.context_token_budget, DEFAULTS.contextTokenBudget)),
    cost,
  };
}

export interface Catalog {
  settings: BotSettings;
  /** Active models by name. */
  models: Map<string, AiModel>;
}

/** The models and settings chat-history owns, read through its bot routes and kept for a few seconds. */
export function catalogReader(api: ServiceClients, ttlMs: number) {
  let cached: { at: number; value: Promise<Catalog> } | undefined;
  const load = async (): Promise<Catalog> => {
    const [{ models }, settings] = await Promise.all([api.models(), api.settings()]);
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
