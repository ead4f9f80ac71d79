import { describe, expect, test } from '@jest/globals';
import { ConfigError } from '@gpt/kit';
import { TEST_SECRETS } from '@gpt/kit/testing';
import { loadBotConfig } from '../src/config';

const production = { ...TEST_SECRETS, NODE_ENV: 'production', SITE_URL: 'https://gpt.example.ru' };

const problemsOf = (env: Record<string, string>) => {
  try {
    loadBotConfig(env);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems;
  }
};

describe('bot configuration', () => {
  test('production refuses to start without a real model API (the sandbox only pretends to answer)', () => {
    expect(problemsOf(production)).toEqual([
      expect.stringMatching(/^LLM_API_URL: a model API is required in production/),
    ]);
    expect(problemsOf({ ...production, LLM_API_URL: 'https://api.openai.com/v1' })).toEqual([]);
  });

  test('outside production the sandbox provider and no Telegram token are allowed', () => {
    const config = loadBotConfig({ ...TEST_SECRETS });
    expect(config.LLM_API_URL).toBeUndefined();
    expect(config.TELEGRAM_BOT_TOKEN).toBeUndefined();
    expect(config.TELEGRAM_API_URL).toBe('https://api.telegram.org');
  });

  test('webhook mode needs its secret, and a token must look like one', () => {
    expect(
      problemsOf({ ...TEST_SECRETS, TELEGRAM_WEBHOOK_URL: 'https://gpt.example.ru/api/telegram/webhook' }),
    ).toEqual([expect.stringMatching(/^TELEGRAM_WEBHOOK_SECRET: webhook mode needs a secret/)]);
    expect(problemsOf({ ...TEST_SECRETS, TELEGRAM_BOT_TOKEN: 'not a token' })).toEqual([
      expect.stringMatching(/^TELEGRAM_BOT_TOKEN: must look like/),
    ]);
  });
});
