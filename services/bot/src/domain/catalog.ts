import {
  COST_SETTING_KEYS,
  DEFAULT_BOT_SETTINGS,
  DEFAULT_COST_SETTINGS,
  messageCost,
  parseRangedBotSetting,
  type AiModel,
  type BotSettingKey,
  type RangedBotSettingKey,
  type ChatMode,
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
  transcriptionModel: string;
  speechModel: string;
  speechVoice: string;
  /** Broadcast messages a second, in all. */
  broadcastPerSecond: number;
  cost: CostSettings;
}

/** A whole-number setting within its range (BOT_SETTING_RANGES); its seeded default when missing or outside it. */
function wholeNumber(stored: Record<string, string>, key: RangedBotSettingKey): number {
  return parseRangedBotSetting(key, stored[key]?.trim() ?? '') ?? Number(DEFAULT_BOT_SETTINGS[key]);
}

function parseSettings(stored: Record<string, string>): BotSettings {
  const text = (key: BotSettingKey) => stored[key]?.trim() || DEFAULT_BOT_SETTINGS[key];
  const cost = { ...DEFAULT_COST_SETTINGS };
  for (const key of COST_SETTING_KEYS) if (stored[key]) cost[key] = stored[key];
  return {
    defaultModel: text('default_model'),
    visionModel: text('vision_model'),
    imageModel: text('image_model'),
    messagesPerMinute: wholeNumber(stored, 'bot_messages_per_minute'),
    lowBalanceThreshold: wholeNumber(stored, 'low_balance_threshold'),
    maxOutputTokens: wholeNumber(stored, 'max_output_tokens'),
    contextTokenBudget: wholeNumber(stored, 'context_token_budget'),
    transcriptionModel: text('transcription_model'),
    speechModel: text('speech_model'),
    speechVoice: text('speech_voice'),
    broadcastPerSecond: wholeNumber(stored, 'broadcast_messages_per_second'),
    cost,
  };
}

export interface Catalog {
  settings: BotSettings;
  /** Active models by name. */
  models: Map<string, AiModel>;
  /** Active chat modes in their order. */
  modes: ChatMode[];
}

/** The models and settings chat-history owns, read through its bot routes and kept for a few seconds. */
export function catalogReader(services: ServiceClients, ttlMs: number) {
  let cached: { at: number; value: Promise<Catalog> } | undefined;
  const load = async (): Promise<Catalog> => {
    const [{ models }, { modes }, settings] = await Promise.all([
      services.models(),
      services.modes(),
      services.settings(),
    ]);
    return {
      settings: parseSettings(settings),
      models: new Map(models.filter((model) => model.is_active).map((model) => [model.model, model])),
      modes,
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

/** Image, speech-recognition and speech models do their own work; they do not talk. */
const chats = (model: AiModel) =>
  !model.image_price && !model.transcription_price_per_minute && !model.speech_price_per_1k_chars;

/** Chat models a user may pick. */
export const chatModels = (catalog: Catalog) => [...catalog.models.values()].filter(chats);

/** The user's model if it is still active, else the default, else any active chat model. */
export function modelFor(catalog: Catalog, chosen: string | null): AiModel | undefined {
  const usable = (name: string | null) => {
    const model = name ? catalog.models.get(name) : undefined;
    return model && chats(model) ? model : undefined;
  };
  return usable(chosen) ?? usable(catalog.settings.defaultModel) ?? chatModels(catalog)[0];
}

/** Credits of a call with these token counts, images, transcribed seconds and spoken characters at the models' prices (the formula chat-history charges by). */
export function creditsFor(
  catalog: Catalog,
  model: AiModel,
  usage: { inputTokens: number; outputTokens: number; images?: number } & VoiceUsage,
): number {
  const transcriber = catalog.models.get(catalog.settings.transcriptionModel);
  const speaker = catalog.models.get(catalog.settings.speechModel);
  return Number(
    messageCost({
      status: 'success',
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      image_count: usage.images ?? 0,
      input_price_per_1m: model.input_price_per_1m,
      output_price_per_1m: model.output_price_per_1m,
      image_price: model.image_price,
      audio_seconds: usage.audioSeconds ?? 0,
      transcription_price_per_minute: transcriber?.transcription_price_per_minute ?? null,
      speech_characters: usage.speechCharacters ?? 0,
      speech_price_per_1k_chars: speaker?.speech_price_per_1k_chars ?? null,
      settings: catalog.settings.cost,
    }).cost,
  );
}

/** The user's mode if it is still active, else the default, else the first active one (none: no mode at all). */
export function modeFor(catalog: Catalog, chosen: number | null): ChatMode | undefined {
  return (
    catalog.modes.find((mode) => mode.id === chosen) ??
    catalog.modes.find((mode) => mode.is_default) ??
    catalog.modes[0]
  );
}

/** Voice work of a call: seconds transcribed and characters spoken, each by its model (from the settings). */
export interface VoiceUsage {
  audioSeconds?: number;
  speechCharacters?: number;
}
