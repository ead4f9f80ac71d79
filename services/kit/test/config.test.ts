import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, commonEnv, loadConfig, port, refuseDevSecrets, serviceDatabaseUrl } from '../src';

const Schema = z.object({ ...commonEnv, PORT: port(8080), UPSTREAM_URL: z.url() }).superRefine(refuseDevSecrets);

describe('loadConfig', () => {
  test('when several variables are bad, then one error lists every one of them', () => {
    let error: unknown;
    try {
      loadConfig(Schema, { PORT: 'eighty', LOG_LEVEL: 'loud', UPSTREAM_URL: undefined });
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
    const config = loadConfig(Schema, { PORT: '', UPSTREAM_URL: 'http://127.0.0.1:1' });
    expect(config.PORT).toBe(8080);
    expect(config.LOG_LEVEL).toBe('info');
  });

  test('when production keeps the development secrets, then the start is refused', () => {
    expect(() => loadConfig(Schema, { NODE_ENV: 'production', UPSTREAM_URL: 'http://x.ru' })).toThrow(
      /JWT_SECRET: the development default is refused in production/,
    );
  });

  test('each service gets its own database on the DATABASE_URL server unless overridden', () => {
    const env = { DATABASE_URL: 'postgres://u:p@db:5432/anything' };
    expect(serviceDatabaseUrl('chat-history', env)).toBe('postgres://u:p@db:5432/gpt_chat_history');
    expect(serviceDatabaseUrl('auth', env, 'postgres://other/x')).toBe('postgres://other/x');
    expect(serviceDatabaseUrl('auth', {})).toBeUndefined();
  });
});
