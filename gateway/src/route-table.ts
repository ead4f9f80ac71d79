/** The services behind the gateway. */
export const SERVICES = ['auth', 'content', 'billing', 'chat-history', 'metrics', 'bot'] as const;
export type ServiceName = (typeof SERVICES)[number];

/**
 * Who may pass: anyone; any valid JWT; a JWT whose role is admin; the Telegram bot with its key.
 * The services check again; this is the first line, not the only one.
 */
export type Access = 'public' | 'user' | 'admin' | 'bot';

export interface RouteRule {
  /** `/api/x*` covers `/api/x` and everything under `/api/x/`; without `*` only the path itself. */
  path: string;
  service: ServiceName;
  access: Access;
}

/** DESIGN.md's route → service table, with the access each path needs. The longest matching rule wins. */
export const ROUTE_TABLE: readonly RouteRule[] = [
  // auth
  { path: '/api/auth/*', service: 'auth', access: 'public' },
  { path: '/api/auth/profile*', service: 'auth', access: 'user' },
  { path: '/api/auth/change-password*', service: 'auth', access: 'user' },
  { path: '/api/auth/link*', service: 'auth', access: 'user' },
  { path: '/api/admin/users*', service: 'auth', access: 'admin' },
  { path: '/api/admin/utm/*', service: 'auth', access: 'admin' },
  { path: '/api/bot/users*', service: 'auth', access: 'bot' },
  { path: '/api/bot/link-tokens*', service: 'auth', access: 'bot' },
  // content
  { path: '/api/articles*', service: 'content', access: 'public' },
  { path: '/api/article_categories*', service: 'content', access: 'public' },
  { path: '/api/article_tags*', service: 'content', access: 'public' },
  { path: '/api/feedback', service: 'content', access: 'public' },
  { path: '/api/admin/articles*', service: 'content', access: 'admin' },
  { path: '/api/admin/article_categories*', service: 'content', access: 'admin' },
  { path: '/api/admin/article_tags*', service: 'content', access: 'admin' },
  // Images of article bodies: uploaded by admins, read by anyone (an <img> on the public page).
  { path: '/api/admin/article_media', service: 'content', access: 'admin' },
  { path: '/api/article_media/*', service: 'content', access: 'public' },
  // billing
  { path: '/api/tariffs', service: 'billing', access: 'public' },
  { path: '/api/billing/*', service: 'billing', access: 'public' },
  { path: '/api/billing/payments*', service: 'billing', access: 'user' },
  { path: '/api/billing/balance', service: 'billing', access: 'user' },
  { path: '/api/billing/webhooks/*', service: 'billing', access: 'public' },
  { path: '/api/admin/tariffs*', service: 'billing', access: 'admin' },
  { path: '/api/admin/payments*', service: 'billing', access: 'admin' },
  { path: '/api/bot/payments*', service: 'billing', access: 'bot' },
  { path: '/api/bot/balance*', service: 'billing', access: 'bot' },
  { path: '/api/bot/holds*', service: 'billing', access: 'bot' },
  // chat-history
  { path: '/api/admin/models*', service: 'chat-history', access: 'admin' },
  { path: '/api/admin/history*', service: 'chat-history', access: 'admin' },
  { path: '/api/admin/sys_vals*', service: 'chat-history', access: 'admin' },
  { path: '/api/bot/messages*', service: 'chat-history', access: 'bot' },
  { path: '/api/bot/models', service: 'chat-history', access: 'bot' },
  { path: '/api/bot/settings', service: 'chat-history', access: 'bot' },
  { path: '/api/welcome_offer', service: 'chat-history', access: 'public' },
  // Images attached to messages: the random id is the secret, so <img> tags can load them.
  { path: '/api/media/*', service: 'chat-history', access: 'public' },
  // metrics
  { path: '/api/admin/stats*', service: 'metrics', access: 'admin' },
  // bot: Telegram's webhook (the bot checks Telegram's secret header) and the bot's public name
  { path: '/api/telegram/webhook', service: 'bot', access: 'public' },
  { path: '/api/telegram/info', service: 'bot', access: 'public' },
  // The local Telegram sandbox (Bot API and the browser's chat); the bot answers 404 when it is off.
  { path: '/api/telegram/sandbox*', service: 'bot', access: 'public' },
];

export interface CompiledRoute {
  readonly rule: RouteRule;
  readonly service: ServiceName;
  readonly access: Access;
}

/**
 * Precomputes the table into two maps so a lookup costs a handful of Map.get calls
 * (one per path segment), whatever the table's size.
 */
export function compileRouteTable(rules: readonly RouteRule[]): (normalizedPath: string) => CompiledRoute | undefined {
  const exact = new Map<string, CompiledRoute>();
  const subtree = new Map<string, CompiledRoute>();
  for (const rule of rules) {
    assertAccessFitsPath(rule);
    const route: CompiledRoute = { rule, service: rule.service, access: rule.access };
    if (rule.path.endsWith('/*')) subtree.set(rule.path.slice(0, -2), route);
    else if (rule.path.endsWith('*')) {
      const base = rule.path.slice(0, -1);
      exact.set(base, route);
      subtree.set(base, route);
    } else exact.set(rule.path, route);
  }

  return (normalizedPath) => {
    let path = normalizedPath;
    const hit = exact.get(path);
    if (hit) return hit;
    // Walk up one segment at a time: /api/admin/users/5 → /api/admin/users → /api/admin → /api.
    let end = path.lastIndexOf('/');
    while (end > 0) {
      path = path.slice(0, end);
      const found = subtree.get(path);
      if (found) return found;
      end = path.lastIndexOf('/');
    }
    return undefined;
  };
}

/**
 * Services route case-insensitively and ignore one trailing slash; match the same way so
 * `/api/Auth/Profile/` cannot slip past the check that `/api/auth/profile` gets.
 */
export function normalizeApiPath(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.charCodeAt(lower.length - 1) === 47 /* / */ ? lower.slice(0, -1) : lower;
}

/** The table must not be able to open an admin or bot path by a typo. */
function assertAccessFitsPath(rule: RouteRule): void {
  if (rule.path.startsWith('/api/admin/') && rule.access !== 'admin') {
    throw new Error(`route ${rule.path} is under /api/admin/ and must require the admin role`);
  }
  if (rule.path.startsWith('/api/bot/') && rule.access !== 'bot') {
    throw new Error(`route ${rule.path} is under /api/bot/ and must require the bot key`);
  }
  if (!rule.path.startsWith('/api/') || rule.path.startsWith('/api/internal')) {
    throw new Error(`route ${rule.path} must be a public /api path`);
  }
}
