import type { BotDeps } from '../deps';

/**
 * The link that opens this bot, with a /start payload when given: Telegram's t.me link, or the site's
 * sandbox page when the bot runs on the sandbox (the page sends «/start payload» as Telegram does);
 * null while the bot's username is unknown.
 */
export function botLink(deps: Pick<BotDeps, 'sandboxPage'>, username: string | null, start?: string): string | null {
  const base = deps.sandboxPage ?? (username ? `https://t.me/${username}` : null);
  if (!base || !start) return base;
  const url = new URL(base);
  url.searchParams.set('start', start);
  return url.toString();
}
