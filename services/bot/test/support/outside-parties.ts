import { startFakeTelegram, type FakeTelegram } from '@gpt/telegram-sandbox/testing';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai';

/**
 * The bot's tests run Telegram's pace ten times as fast, on both sides: the bot's throttler
 * (TELEGRAM_TEST_SPEEDUP) and the sandbox's flood limits. Every limit still holds, in proportion, so
 * a bot that breaks the pace meets its 429 — in a tenth of the time a real second would take.
 */
const TELEGRAM_SPEEDUP = 10;

/** Telegram and the model API as the bot's tests meet them: fakes on localhost speaking their protocols. */
export interface OutsideParties {
  telegram: FakeTelegram;
  openai: FakeOpenAI;
  /** The bot's environment pointing at them, with quick retries, edits and catalog reads. */
  env: Record<string, string>;
}

export async function startOutsideParties(): Promise<OutsideParties> {
  const [telegram, openai] = await Promise.all([startFakeTelegram({ speedup: TELEGRAM_SPEEDUP }), startFakeOpenAI()]);
  return {
    telegram,
    openai,
    env: {
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_URL: telegram.apiUrl,
      TELEGRAM_TEST_SPEEDUP: String(TELEGRAM_SPEEDUP),
      LLM_API_URL: openai.baseURL,
      LLM_API_KEY: 'sk-test',
      LLM_RETRY_BASE_MS: '10',
      BOT_STREAM_EDIT_INTERVAL_MS: '50',
      BOT_CATALOG_TTL_MS: '0',
    },
  };
}
