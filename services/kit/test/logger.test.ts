import { describe, expect, test } from '@jest/globals';
import { createLogger, defaultLogFormat, type LogFormat } from '../src/logger';

/** A logger whose lines are collected instead of written to standard output. */
function capture(format: LogFormat) {
  const lines: string[] = [];
  const logger = createLogger({ name: 'test', format, destination: { write: (line: string) => lines.push(line) } });
  return { logger, lines };
}

const TOKEN = '8704894160:JLbvLBNZwkIEeR8-ARLb9aKWMxZ-PdMiCd49';

describe('logs', () => {
  test('a line names its service once: a child service logger of the one-process product replaces its parent’s', () => {
    const { logger, lines } = capture('json');
    logger.child({ service: 'billing' }).info('billing listening');

    expect(lines[0]!.match(/"service":/g)).toHaveLength(1);
    expect(lines[0]).not.toContain('"name":');
    expect(JSON.parse(lines[0]!)).toMatchObject({ service: 'billing', msg: 'billing listening' });
  });

  test('when a line carries a token, secret or reset link anywhere, then it is written redacted', () => {
    const { logger, lines } = capture('json');
    logger.info({ url: `/api/telegram/sandbox/bot${TOKEN}/getUpdates?timeout=30` }, 'request');
    logger.info(`fetch https://api.telegram.org/file/bot${TOKEN}/photos/1.jpg failed`);
    logger.info({ mail: { text: 'откройте ссылку: https://site.ru/reset-password/kitJbQJ1Q0k9uTc_Vyd' } }, 'mail');
    logger.info({ url: '/link/Zx81_linkToken?utm=1' }, 'request');
    logger.info({ url: '/api/x?access_token=abc123&page=2&secret=s3cr3t' }, 'request');
    logger.info({ config: { api_key: 'sk-live-123', password: 'hunter22', token_version: 3 } }, 'config');
    logger.info('authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig');
    logger.error({ err: new Error('connect ECONNREFUSED postgres://app:pa55word@db:5432/gpt') }, 'database down');

    const written = lines.join('');
    for (const secret of [
      TOKEN,
      'kitJbQJ1Q0k9uTc_Vyd',
      'Zx81_linkToken',
      'abc123',
      's3cr3t',
      'sk-live-123',
      'hunter22',
    ]) {
      expect(written).not.toContain(secret);
    }
    expect(written).not.toContain('eyJhbGciOiJIUzI1NiJ9');
    expect(written).not.toContain('pa55word');
    expect(JSON.parse(lines[0]!)).toMatchObject({ url: '/api/telegram/sandbox/bot[REDACTED]/getUpdates?timeout=30' });
    expect(JSON.parse(lines[4]!)).toMatchObject({ url: '/api/x?access_token=[REDACTED]&page=2&secret=[REDACTED]' });
    // What is not a secret stays readable.
    expect(JSON.parse(lines[5]!)).toMatchObject({ config: { token_version: 3 } });
    expect(written).toContain('postgres://app:[REDACTED]@db:5432/gpt');
  });

  test('when the output is a terminal, then lines are human-readable; otherwise (or with LOG_FORMAT=json) JSON', () => {
    expect(defaultLogFormat({ isTTY: true })).toBe('pretty');
    expect(defaultLogFormat({ isTTY: false })).toBe('json');
    expect(defaultLogFormat({})).toBe('json');

    const pretty = capture('pretty');
    pretty.logger.child({ service: 'gateway' }).info({ url: 'http://localhost:8080' }, 'gateway listening');
    pretty.logger
      .child({ service: 'bot' })
      .info({ req: { method: 'POST', url: `/bot${TOKEN}/getMe` }, res: { statusCode: 200 }, responseTime: 31 }, 'done');
    expect(pretty.lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: gateway: gateway listening \{"url":"http:\/\/localhost:8080"\}\n$/,
    );
    expect(pretty.lines[1]).toMatch(/INFO: bot: POST \/bot\[REDACTED\]\/getMe → 200 \(31 ms\)\n$/);

    const json = capture('json');
    json.logger.info('started');
    expect(JSON.parse(json.lines[0]!)).toMatchObject({ level: 30, service: 'test', msg: 'started' });
  });
});
