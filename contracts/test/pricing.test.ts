import { describe, expect, test } from '@jest/globals';
import {
  creditsForTopUp,
  DEFAULT_COST_SETTINGS,
  messageCost,
  typicalMessageCost,
  typicalMessagesFor,
} from '../src/index';

const prices = {
  input_price_per_1m: '2.500000',
  output_price_per_1m: '10.000000',
  settings: DEFAULT_COST_SETTINGS,
};

describe('messageCost', () => {
  test('when tokens are priced per 1M, then dollars are exact and credits rounded up (the example in docs/money.md)', () => {
    expect(
      messageCost({
        status: 'success',
        input_tokens: 1234,
        output_tokens: 567,
        ...prices,
      }),
    ).toEqual({
      input_cost: '0.003085000000',
      output_cost: '0.005670000000',
      image_cost: '0.000000000000',
      transcription_cost: '0.000000000000',
      speech_cost: '0.000000000000',
      total_cost: '0.008755000000',
      cost: 167n,
    });
  });

  test('when the model generated images, then each adds the image price', () => {
    const cost = messageCost({
      status: 'success',
      input_tokens: 0,
      output_tokens: 0,
      image_count: 2,
      input_price_per_1m: '0',
      output_price_per_1m: '0',
      image_price: '0.040000',
      settings: DEFAULT_COST_SETTINGS,
    });
    // $0.08 × 95 ₽/$ × 2 × 100 credits/₽ = 1 520 credits.
    expect(cost).toMatchObject({
      image_cost: '0.080000000000',
      total_cost: '0.080000000000',
      cost: 1520n,
    });
  });

  test('when a voice message was transcribed and the answer spoken, then both add to the tokens', () => {
    const cost = messageCost({
      status: 'success',
      input_tokens: 1000,
      output_tokens: 0,
      input_price_per_1m: '1',
      output_price_per_1m: '0',
      audio_seconds: 90,
      transcription_price_per_minute: '0.006000',
      speech_characters: 2500,
      speech_price_per_1k_chars: '0.015000',
      settings: DEFAULT_COST_SETTINGS,
    });
    // $0.001 + 1.5 min × $0.006 + 2.5 × $0.015 = $0.0475 → × 95 × 2 × 100 = 902.5 → 903 credits.
    expect(cost).toMatchObject({
      transcription_cost: '0.009000000000',
      speech_cost: '0.037500000000',
      total_cost: '0.047500000000',
      cost: 903n,
    });
  });

  test('when seconds do not make whole sixtieths of the price, then the transcription is rounded up at 12 decimals', () => {
    const cost = messageCost({
      status: 'success',
      input_tokens: 0,
      output_tokens: 0,
      ...prices,
      audio_seconds: 7,
      transcription_price_per_minute: '0.000001',
    });
    // 7 × $0.000001 / 60 = $0.000000116666…
    expect(cost.transcription_cost).toBe('0.000000116667');
  });

  test('when the message is an error, then it costs nothing, images included', () => {
    const cost = messageCost({
      status: 'error',
      input_tokens: 10,
      output_tokens: 10,
      image_count: 1,
      image_price: '1',
      audio_seconds: 60,
      transcription_price_per_minute: '1',
      ...prices,
    });
    expect(cost).toMatchObject({ total_cost: '0.000000000000', transcription_cost: '0.000000000000', cost: 0n });
  });
});

describe('typical messages (the welcome grant in messages)', () => {
  test('when the model is gpt-4o-mini, then 500 + 500 tokens cost 8 credits and 2 000 credits buy 250 of them', () => {
    const cost = typicalMessageCost({ input_price_per_1m: '0.15', output_price_per_1m: '0.60' }, DEFAULT_COST_SETTINGS);
    expect(cost).toBe(8);
    expect(typicalMessagesFor(2000, cost)).toBe(250);
    expect(typicalMessagesFor(2000, 7)).toBe(285);
  });

  test('when the model is free, then there is no count to tell', () => {
    const cost = typicalMessageCost({ input_price_per_1m: '0', output_price_per_1m: '0' }, DEFAULT_COST_SETTINGS);
    expect(typicalMessagesFor(2000, cost)).toBeNull();
  });
});

describe('creditsForTopUp', () => {
  test('when roubles buy credits, then kopecks × credits per rouble / 100 are rounded down, exactly', () => {
    expect(creditsForTopUp('350.00', 100)).toBe(35_000);
    expect(creditsForTopUp('99.99', 150)).toBe(14_998);
    expect(creditsForTopUp('0.01', 150)).toBe(1);
    expect(creditsForTopUp('1000000.00', 400)).toBe(400_000_000);
  });
});
