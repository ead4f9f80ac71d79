import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, commonEnv, loadConfig, port, resolveSiteUrl, serviceDatabaseUrl, siteUrlEnv } from '../src';

const Schema = z
  .object({ ...commonEnv, ...siteUrlEnv, PORT: port(8080), UPSTREAM_URL: z.url() })
  .transform((config, ctx) => resolveSiteUrl(config, ctx, config.PORT));
const SECRETS = { JWT_SECRET: 'kit-config-test-jwt-secret-0123456789abcdef', BOT_API_KEY: 'kit-config-bot-key' };

describe('loadConfig', () => {
  test('when several variables are bad, then one error lists every one of them', () => {
    let error: unknown;
    try {
      loadConfig(Schema, { ...SECRETS, PORT: 'eighty', LOG_LEVEL: 'loud', UPSTREAM_URL: undefined });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.map((p) => p.split(':')[0])).toEqual(expect.arrayContaining(['PORT', 'LOG_LEVEL', 'UPSTREAM_URL']));
    expect((error as Error).message).toContain('UPSTREAM_URL');
  });

  test('when valid, then defaults apply and empty strings count as unset', () => {
    const config = loadConfig(Schema, { ...SECRETS, PORT: '', UPSTREAM_URL: 'http://127.0.0.1:1' });
    expect(config.PORT).toBe(8080);
    expect(config.LOG_LEVEL).toBe('info');
  });

  test('when the secrets are not set, then the start is refused: the code has no default to fall back on', () => {
    expect(() => loadConfig(Schema, { UPSTREAM_URL: 'http://x.ru' })).toThrow(/JWT_SECRET: is required/);
    expect(() => loadConfig(Schema, { UPSTREAM_URL: 'http://x.ru' })).toThrow(/BOT_API_KEY: is required/);
  });

  test('production refuses weak secrets — known defaults, too little entropy — listed with every other problem at once', () => {
    let error: unknown;
    try {
      loadConfig(Schema, {
        NODE_ENV: 'production',
        SITE_URL: 'https://gpt.example.ru',
        JWT_SECRET: 'a'.repeat(32),
        BOT_API_KEY: '12345678',
        ADMIN_PASSWORD: 'admin12345',
        PORT: 'eighty',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(
      expect.arrayContaining([
        'JWT_SECRET: is too easy to guess (generate a random one)',
        'BOT_API_KEY: is a known default value',
        'ADMIN_PASSWORD: is a known default value',
        expect.stringMatching(/^PORT:/),
        expect.stringMatching(/^UPSTREAM_URL:/),
      ]),
    );
    const strong = {
      ...SECRETS,
      NODE_ENV: 'production',
      SITE_URL: 'https://gpt.example.ru',
      UPSTREAM_URL: 'http://x.ru',
    };
    expect(loadConfig(Schema, { ...strong, ADMIN_PASSWORD: 'q7-Lm2#xVp9w' }).NODE_ENV).toBe('production');
  });

  test('development said outright refuses a public SITE_URL and says why; a local one starts', () => {
    const env = { ...SECRETS, UPSTREAM_URL: 'http://x.ru', NODE_ENV: 'development' };
    expect(() => loadConfig(Schema, { ...env, SITE_URL: 'https://gpt.example.ru' })).toThrow(
      /SITE_URL: https:\/\/gpt\.example\.ru is public, but development runs the free payment sandbox/,
    );
    expect(loadConfig(Schema, { ...env, SITE_URL: 'http://localhost:8080' }).SITE_URL).toBe('http://localhost:8080');
  });

  test('SITE_URL is required in production and defaults to the local gateway elsewhere', () => {
    const env = { ...SECRETS, UPSTREAM_URL: 'http://x.ru', PORT: '9090' };
    expect(loadConfig(Schema, env).SITE_URL).toBe('http://localhost:9090');
    expect(loadConfig(Schema, { ...env, SITE_URL: 'https://gpt.example.ru/' }).SITE_URL).toBe('https://gpt.example.ru');
    expect(() => loadConfig(Schema, { ...env, NODE_ENV: 'production' })).toThrow(/SITE_URL: is required in production/);
  });

  test('each service gets its own database on the DATABASE_URL server unless overridden', () => {
    const env = { DATABASE_URL: 'postgres://u:p@db:5432/anything' };
    expect(serviceDatabaseUrl('chat-history', env)).toBe('postgres://u:p@db:5432/gpt_chat_history');
    expect(serviceDatabaseUrl('auth', env, 'postgres://other/x')).toBe('postgres://other/x');
    expect(serviceDatabaseUrl('auth', {})).toBeUndefined();
  });
});
