import { fromMinorUnits, toMinorUnits } from './common';

/**
 * The price of a model call, shared by chat-history (which records what a message cost) and the
 * bot (which holds the most a call can cost before making it), so both compute the same figure.
 */

/** Model prices (per 1M tokens, per image) are dollars with 6 decimals. */
export const PRICE_SCALE = 6;
/** tokens × (price / 10^6) / 10^6 tokens: 12 decimals hold every cost exactly, no rounding. */
export const COST_SCALE = 12;
/** Decimals a cost setting may have. */
export const SETTING_SCALE = 6;

/** The settings the credit price of a message is made of, as decimal strings. */
export interface CostSettings {
  /** Roubles per dollar. */
  usd_rub_rate: string;
  /** How many times the model's price the user pays. */
  credit_markup: string;
  /** Credits per rouble of that price (the Base tariff's 100). */
  credits_per_rub: string;
}

export const COST_SETTING_KEYS = [
  'usd_rub_rate',
  'credit_markup',
  'credits_per_rub',
] as const satisfies readonly (keyof CostSettings)[];

export const DEFAULT_COST_SETTINGS: CostSettings = {
  usd_rub_rate: '95.00',
  credit_markup: '2.0',
  credits_per_rub: '100',
};

export interface MessageCost {
  /** Dollars, 12 decimals. */
  input_cost: string;
  output_cost: string;
  image_cost: string;
  /** Speech recognition of the user's voice message. */
  transcription_cost: string;
  /** The answer read aloud. */
  speech_cost: string;
  total_cost: string;
  /** Credits. */
  cost: bigint;
}

export interface MessageCostInput {
  status: 'success' | 'error';
  input_tokens: number;
  output_tokens: number;
  /** Images the model generated (0 when absent). */
  image_count?: number;
  input_price_per_1m: string;
  output_price_per_1m: string;
  /** Dollars per generated image; null for a model that makes none. */
  image_price?: string | null;
  /** Seconds of the user's audio that were transcribed (0 when absent). */
  audio_seconds?: number;
  /** Dollars per minute of audio of the transcription model. */
  transcription_price_per_minute?: string | null;
  /** Characters of the answer read aloud (0 when absent). */
  speech_characters?: number;
  /** Dollars per 1 000 characters of the speech model. */
  speech_price_per_1k_chars?: string | null;
  settings: CostSettings;
}

const ZERO_COST = fromMinorUnits(0n, COST_SCALE);
/** A price (6 decimals) at the 12 decimals of a cost. */
const PRICE_TO_COST = 10n ** BigInt(COST_SCALE - PRICE_SCALE);

const priceUnits = (price: string | null | undefined) => toMinorUnits(price ?? '0', PRICE_SCALE);

/** seconds × price per minute / 60, rounded up at the 12th decimal (the one cost part that may not be exact). */
function transcriptionUnits(seconds: number, pricePerMinute: string | null | undefined): bigint {
  const sixtieths = BigInt(seconds) * priceUnits(pricePerMinute) * PRICE_TO_COST;
  return (sixtieths + 59n) / 60n;
}

/** characters × price per 1 000 characters / 1 000: exact at 12 decimals. */
const speechUnits = (characters: number, pricePer1k: string | null | undefined) =>
  (BigInt(characters) * priceUnits(pricePer1k) * PRICE_TO_COST) / 1000n;

/**
 * The price of one message:
 *   input_cost  = input_tokens  × input_price_per_1m  / 1 000 000   (dollars, exact)
 *   output_cost = output_tokens × output_price_per_1m / 1 000 000
 *   image_cost  = image_count   × image_price
 *   transcription_cost = ⌈ audio_seconds × transcription_price_per_minute / 60 ⌉   (at 12 decimals)
 *   speech_cost = speech_characters × speech_price_per_1k_chars / 1 000
 *   total_cost  = input_cost + output_cost + image_cost + transcription_cost + speech_cost
 *   cost        = ⌈ total_cost × usd_rub_rate × credit_markup × credits_per_rub ⌉   (credits)
 * A failed message costs nothing.
 */
export function messageCost(input: MessageCostInput): MessageCost {
  if (input.status === 'error') {
    return {
      input_cost: ZERO_COST,
      output_cost: ZERO_COST,
      image_cost: ZERO_COST,
      transcription_cost: ZERO_COST,
      speech_cost: ZERO_COST,
      total_cost: ZERO_COST,
      cost: 0n,
    };
  }
  const inputUnits = BigInt(input.input_tokens) * priceUnits(input.input_price_per_1m);
  const outputUnits = BigInt(input.output_tokens) * priceUnits(input.output_price_per_1m);
  const imageUnits = BigInt(input.image_count ?? 0) * priceUnits(input.image_price) * PRICE_TO_COST;
  const transcribedUnits = transcriptionUnits(input.audio_seconds ?? 0, input.transcription_price_per_minute);
  const spokenUnits = speechUnits(input.speech_characters ?? 0, input.speech_price_per_1k_chars);
  const totalUnits = inputUnits + outputUnits + imageUnits + transcribedUnits + spokenUnits;
  const { usd_rub_rate, credit_markup, credits_per_rub } = input.settings;
  const numerator =
    totalUnits *
    toMinorUnits(usd_rub_rate, SETTING_SCALE) *
    toMinorUnits(credit_markup, SETTING_SCALE) *
    toMinorUnits(credits_per_rub, SETTING_SCALE);
  const denominator = 10n ** BigInt(COST_SCALE + 3 * SETTING_SCALE);
  return {
    input_cost: fromMinorUnits(inputUnits, COST_SCALE),
    output_cost: fromMinorUnits(outputUnits, COST_SCALE),
    image_cost: fromMinorUnits(imageUnits, COST_SCALE),
    transcription_cost: fromMinorUnits(transcribedUnits, COST_SCALE),
    speech_cost: fromMinorUnits(spokenUnits, COST_SCALE),
    total_cost: fromMinorUnits(totalUnits, COST_SCALE),
    cost: (numerator + denominator - 1n) / denominator,
  };
}

/** "Roughly how many messages": a typical message is 500 tokens in and 500 out. */
export const TYPICAL_MESSAGE_TOKENS = { input_tokens: 500, output_tokens: 500 } as const;

/** What a typical message costs in credits with a model of these prices. */
export function typicalMessageCost(
  prices: Pick<MessageCostInput, 'input_price_per_1m' | 'output_price_per_1m'>,
  settings: CostSettings,
): number {
  return Number(messageCost({ status: 'success', ...TYPICAL_MESSAGE_TOKENS, ...prices, settings }).cost);
}

/** How many typical messages `credits` pay for (null for a free model: no limit to tell). */
export function typicalMessagesFor(credits: number, messageCredits: number): number | null {
  return messageCredits > 0 ? Math.floor(credits / messageCredits) : null;
}

/** A cost setting's value is a positive decimal with at most 6 decimals, up to 1 000 000. */
export function isValidCostSetting(value: string): boolean {
  try {
    const units = toMinorUnits(value, SETTING_SCALE);
    return units > 0n && units <= toMinorUnits('1000000', SETTING_SCALE);
  } catch {
    return false;
  }
}

/**
 * Telegram Stars: `star_rate_rub` is roubles per star (an admin setting in /admin/sysvals, seeded
 * 1.5; billing learns it from `setting.changed`). A price in stars is the rouble price divided by
 * it, rounded up to whole stars.
 */
export const STAR_RATE_KEY = 'star_rate_rub';
export const DEFAULT_PAYMENT_SETTINGS = { [STAR_RATE_KEY]: '1.5' } as const satisfies Record<string, string>;

/** Whole stars for a rouble price at a rate of roubles per star: ⌈roubles / rate⌉, exact. */
export function starsFor(price: string, rate: string): number {
  const kopecks = toMinorUnits(price, 2) * 10n ** BigInt(SETTING_SCALE);
  const rateKopecks = toMinorUnits(rate, SETTING_SCALE) * 100n;
  return Number((kopecks + rateKopecks - 1n) / rateKopecks);
}

/** Credits a top-up of `amount` roubles buys at a tariff's credits per rouble: kopecks × rate / 100, rounded down, exact. */
export function creditsForTopUp(amount: string, creditsPerRuble: number): number {
  return Number((toMinorUnits(amount, 2) * BigInt(creditsPerRuble)) / 100n);
}

/** Made on first use: every process and page imports the contracts, few of them show a price. */
let roubles: Intl.NumberFormat | undefined;

/** Roubles as a Russian reader writes them ("1250.5" → "1 250,50 ₽"), wherever they are shown; never arithmetic. */
export const formatRoubles = (value: string) =>
  (roubles ??= new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'RUB', minimumFractionDigits: 2 })).format(
    Number(value),
  );
