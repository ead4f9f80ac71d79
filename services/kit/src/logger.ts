import { pino, type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  name: string;
  level?: string;
  /** `LOG_FORMAT`; unset: human-readable lines in a terminal, JSON lines when the output is not one. */
  format?: LogFormat;
  /** Where the lines go (default: standard output). */
  destination?: DestinationStream;
}

const REDACTED = '[REDACTED]';

/**
 * What a log line must never carry, wherever it appears (a URL, a message, an error, a field): Bot API
 * tokens in `/bot<token>/` paths, the tokens of password-reset and account-link pages, values of
 * query parameters and JSON fields named like a token, secret, password or key, bearer tokens and the
 * password of a URL's user info.
 */
const SECRETS: [RegExp, string][] = [
  [/(\/bot)\d+(?::|%3A)[\w-]+/gi, `$1${REDACTED}`],
  [/(\/(?:reset-password|link)\/)[^/\s"'?#<>]+/g, `$1${REDACTED}`],
  [/([?&][\w.-]*(?:token|secret|password|passwd|key|signature|code)=)[^&\s"'#<>]+/gi, `$1${REDACTED}`],
  [/("[\w-]*(?:token|secret|password|api_?key)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi, `$1"${REDACTED}"`],
  [/(bearer\s+)[\w.~+/-]+=*/gi, `$1${REDACTED}`],
  [/(\/\/[^/\s:@"']+:)[^@\s/"']+@/g, `$1${REDACTED}@`],
];

export function redactSecrets(text: string): string {
  return SECRETS.reduce((safe, [pattern, replacement]) => safe.replace(pattern, replacement), text);
}

export function defaultLogFormat(output: { isTTY?: boolean } = process.stdout): LogFormat {
  return output.isTTY ? 'pretty' : 'json';
}

/** A request line (the gateway's access log or pino-http's) becomes one short message; every line names its service. */
function readable(log: Record<string, unknown>): Record<string, unknown> {
  const { service, ...rest } = log;
  const prefix = service ? `${String(service)}: ` : '';
  const req = log.req as { method?: string; url?: string } | undefined;
  const [verb, path, code, took] = req
    ? [req.method, req.url, (log.res as { statusCode?: number } | undefined)?.statusCode, log.responseTime]
    : [log.method, log.url, log.status, log.ms];
  if (verb && path) {
    const request = `${String(verb)} ${String(path)} → ${String(code)} (${String(took)} ms)`;
    return { level: log.level, time: log.time, err: log.err, msg: `${prefix}${request}` };
  }
  return { ...rest, msg: `${prefix}${String(rest.msg ?? '')}` };
}

/** Every line is redacted, then written as it is (JSON) or made readable (pretty), in the order logged. */
function redactingSink(format: LogFormat, destination: DestinationStream): DestinationStream {
  const pretty =
    format === 'pretty'
      ? prettyFactory({
          colorize: Boolean(process.stdout.isTTY),
          translateTime: 'SYS:HH:MM:ss',
          ignore: 'pid,hostname,name',
          singleLine: true,
        })
      : undefined;
  return {
    write(line: string) {
      const safe = redactSecrets(line);
      if (pretty) return void destination.write(pretty(readable(JSON.parse(safe) as Record<string, unknown>)));
      // A child logger's `service` (a service of the one-process product) is appended after its parent's:
      // the line keeps one key, the child's.
      destination.write(
        safe.indexOf('"service":') === safe.lastIndexOf('"service":') ? safe : `${JSON.stringify(JSON.parse(safe))}\n`,
      );
    },
  };
}

/** One logger per process; children per service so every line names where it came from. */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      // `service` names the process or service; pino's `name` would only repeat it.
      base: { service: options.name },
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-bot-key"]', 'req.headers.cookie'],
        remove: true,
      },
    },
    redactingSink(options.format ?? defaultLogFormat(), options.destination ?? pino.destination(1)),
  );
}
