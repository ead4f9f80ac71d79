import { describe, expect, test } from '@jest/globals';
import { DEFAULT_COST_SETTINGS, type AiModel, type BotBalanceResponse } from '@gpt/contracts';
import type { Catalog } from '../src/domain/catalog';
import { documentPrompt } from '../src/domain/document-prompt';
import { imageTariffNames, linkLifetimeMinutes } from '../src/domain/facts';
import { creditsPer1000Tokens } from '../src/domain/prices';
import { welcomeGift } from '../src/domain/welcome';

/** The bot's sums without Telegram: what /start, /model and a document turn into. */
const model = (overrides: Partial<AiModel> = {}): AiModel => ({
  id: 1,
  model: 'gpt-4o-mini',
  description: null,
  input_price_per_1m: '0.15',
  output_price_per_1m: '0.6',
  image_price: null,
  transcription_price_per_minute: null,
  speech_price_per_1k_chars: null,
  is_active: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const catalog = (models: AiModel[]): Catalog => ({
  settings: {
    defaultModel: 'gpt-4o-mini',
    visionModel: 'gpt-4o-mini',
    imageModel: 'dall-e-3',
    messagesPerMinute: 20,
    lowBalanceThreshold: 100,
    maxOutputTokens: 1000,
    contextTokenBudget: 4000,
    transcriptionModel: 'whisper-1',
    speechModel: 'tts-1',
    speechVoice: 'alloy',
    broadcastPerSecond: 25,
    cost: DEFAULT_COST_SETTINGS,
  },
  models: new Map(models.map((m) => [m.model, m])),
  modes: [],
});

const balance = (welcomeCredits: number): BotBalanceResponse => ({
  user_id: 1,
  telegram_id: 1,
  credits: welcomeCredits,
  included_credits: 0,
  held_credits: 0,
  available_credits: welcomeCredits,
  can_send: welcomeCredits > 0,
  can_generate_images: false,
  tariff: { id: 1, name: 'Base', monthly_price: '0.00', end_date: null },
  welcome_credits: welcomeCredits,
});

describe('the welcome gift', () => {
  test('when the balance holds a grant, then it is told with the messages of the default model it buys', () => {
    // 500 + 500 tokens of gpt-4o-mini: ⌈0.000375 $ × 95 × 2 × 100⌉ = 8 credits; 2 000 / 8 = 250.
    expect(welcomeGift(balance(2000), catalog([model()]), true)).toEqual({
      credits: 2000,
      model: 'gpt-4o-mini',
      messages: 250,
    });
  });

  test('when no chat model is active, then the gift is told without a message count', () => {
    expect(welcomeGift(balance(2000), catalog([]), true)).toEqual({
      credits: 2000,
      model: 'gpt-4o-mini',
      messages: null,
    });
  });

  test('when the balance holds no grant, then there is no gift', () => {
    expect(welcomeGift(balance(0), catalog([model()]), true)).toBeNull();
  });

  test('when the user has been in the bot before, then the gift is not offered again', () => {
    expect(welcomeGift(balance(2000), catalog([model()]), false)).toBeNull();
  });
});

describe('prices per 1 000 tokens', () => {
  test('are the credits the cost formula charges for 1 000 tokens of the question and of the answer', () => {
    // 0.15 $ and 0.6 $ per 1M: 0.00015 $ × 19 000 = 2.85 → 3; 0.0006 $ × 19 000 = 11.4 → 12.
    expect(creditsPer1000Tokens(catalog([model()]), model())).toEqual({ input: 3, output: 12 });
  });
});

describe('a document for the model', () => {
  test('the history shows its name and question; the model reads the question, then the quoted text', () => {
    expect(documentPrompt('отчёт.pdf', 'О чём это?', 'Текст')).toEqual({
      userMessage: '📄 отчёт.pdf: О чём это?',
      content: 'О чём это?\n\nТекст документа «отчёт.pdf»:\n"""\nТекст\n"""',
    });
  });
});

describe('facts the texts take from data', () => {
  test('the tariffs that draw images are those billing marks so, by name', () => {
    const tariff = (name: string, images: boolean) => ({
      id: 1,
      name,
      description: null,
      monthly_price: '0.00',
      credits_per_ruble: 100,
      included_credits: 0,
      can_generate_images: images,
    });
    expect(imageTariffNames([tariff('Base', false), tariff('Премиум', true), tariff('Elite', true)])).toEqual([
      'Премиум',
      'Elite',
    ]);
  });

  test('a link token lives the whole minutes until its expiry', () => {
    const now = Date.parse('2026-01-01T12:00:00.000Z');
    expect(linkLifetimeMinutes({ expires_at: '2026-01-01T12:15:00.000Z' }, now + 40)).toBe(15);
  });
});
