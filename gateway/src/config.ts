import { commonEnv, type Env, loadConfig, port, resolveSiteUrl, siteUrlEnv } from '@gpt/kit';
import { isIP } from 'node:net';
import { z } from 'zod';

/** Each service's default port (services/<name>/src/config.ts). */
const upstream = (fallbackPort: number) => z.url().default(`http://127.0.0.1:${fallbackPort}`);
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => ['true', '1', 'on', 'yes'].includes(value));

/** Comma-separated proxy hops whose X-Forwarded-For we believe: IPs or CIDRs, never "trust everything". */
const trustedProxies = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean),
  )
  .refine((hops) => hops.every((hop) => !['*', 'true', '0.0.0.0/0', '::/0'].includes(hop)), {
    message: 'list specific proxy addresses; trusting every hop would let clients forge their IP',
  })
  .refine((hops) => hops.every(isAddressOrSubnet), { message: 'each entry must be an IP address or a CIDR subnet' });

function isAddressOrSubnet(hop: string): boolean {
  const [address = '', prefix, ...rest] = hop.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return Number.isInteger(bits) && bits >= 1 && bits <= (family === 4 ? 32 : 128);
}

export const GatewayConfigSchema = z
  .object({
    ...commonEnv,
    PORT: port(8080),
    AUTH_URL: upstream(8081),
    CONTENT_URL: upstream(8082),
    BILLING_URL: upstream(8083),
    CHAT_HISTORY_URL: upstream(8084),
    METRICS_URL: upstream(8085),
    BOT_URL: upstream(8086),
    /** The built web app (Vite's dist). */
    WEB_DIR: z.string().default('web/dist'),
    ANALYTICS_ID: z.string().optional(),
    /** The site's public origin (e.g. https://example.ru) for canonical links, robots.txt and the sitemap. */
    ...siteUrlEnv,
    /** The Telegram bot's username for «Открыть бота»; unset: the site asks the bot service (getMe). */
    TELEGRAM_BOT_USERNAME: z
      .string()
      .regex(/^[A-Za-z]\w{3,31}$/, 'must be a Telegram username without @')
      .optional(),
    TRUST_PROXY: trustedProxies,
    /** Per client IP, on POST /api/auth/login. */
    RATE_LIMIT_LOGIN_POINTS: positiveInt(10),
    RATE_LIMIT_LOGIN_WINDOW_SEC: positiveInt(60),
    /**
     * Per e-mail (hashed) and client address, on POST /api/auth/login; past it the address gets 429.
     * Past the same count from all addresses together, each login of the account is slowed (not refused).
     * A successful login clears both.
     */
    RATE_LIMIT_LOGIN_ACCOUNT_POINTS: positiveInt(10),
    RATE_LIMIT_LOGIN_ACCOUNT_WINDOW_SEC: positiveInt(900),
    /** Per signed-in user, on POST /api/auth/change-password (each one a guess at the current password). */
    RATE_LIMIT_PASSWORD_CHANGE_POINTS: positiveInt(5),
    RATE_LIMIT_PASSWORD_CHANGE_WINDOW_SEC: positiveInt(900),
    /** Per signed-in user, on POST /api/billing/payments. */
    RATE_LIMIT_PAYMENT_POINTS: positiveInt(10),
    RATE_LIMIT_PAYMENT_WINDOW_SEC: positiveInt(600),
    /** Promo code attempts (each a guess when the code is wrong), per signed-in user and per client IP. */
    RATE_LIMIT_PROMO_POINTS: positiveInt(10),
    RATE_LIMIT_PROMO_IP_POINTS: positiveInt(30),
    RATE_LIMIT_PROMO_WINDOW_SEC: positiveInt(600),
    RATE_LIMIT_REGISTER_POINTS: positiveInt(10),
    RATE_LIMIT_REGISTER_WINDOW_SEC: positiveInt(600),
    /** Per client IP, on POST /api/auth/password-reset (auth also caps the links one account gets). */
    RATE_LIMIT_PASSWORD_RESET_POINTS: positiveInt(5),
    RATE_LIMIT_PASSWORD_RESET_WINDOW_SEC: positiveInt(900),
    /** Per client IP, on POST /api/auth/password-reset/confirm (auth also counts per token prefix from everywhere). */
    RATE_LIMIT_PASSWORD_RESET_CONFIRM_POINTS: positiveInt(10),
    RATE_LIMIT_PASSWORD_RESET_CONFIRM_WINDOW_SEC: positiveInt(900),
    RATE_LIMIT_FEEDBACK_POINTS: positiveInt(5),
    RATE_LIMIT_FEEDBACK_WINDOW_SEC: positiveInt(600),
    /** A new upstream connection that takes longer than this is given up (→ 503). */
    UPSTREAM_CONNECT_TIMEOUT_MS: positiveInt(1500),
    /** An upstream that stays silent this long is given up (→ 502). */
    UPSTREAM_TIMEOUT_MS: positiveInt(30_000),
    UPSTREAM_MAX_SOCKETS: positiveInt(256),
    /** How long an idle client connection stays open; longer than load balancers' and browsers' own. */
    KEEP_ALIVE_TIMEOUT_MS: positiveInt(65_000),
    ACCESS_LOG: flag(true),
  })
  .transform((config, ctx) => resolveSiteUrl(config, ctx, config.PORT));

export type GatewayConfig = z.infer<typeof GatewayConfigSchema>;

/** Parses the gateway's environment once; throws ConfigError listing every bad variable. */
export function loadGatewayConfig(env?: Env): GatewayConfig {
  return loadConfig(GatewayConfigSchema, env);
}
