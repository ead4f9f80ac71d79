import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs to stdout; one child per service so every line names where it came from. */
export function createLogger(options: { name: string; level?: string }): Logger {
  return pino({
    name: options.name,
    level: options.level ?? 'info',
    base: { service: options.name },
    redact: { paths: ['req.headers.authorization', 'req.headers["x-bot-key"]', 'req.headers.cookie'], remove: true },
  });
}
