import { loadConfig, resolveSiteUrl, serviceConfigSchema, siteUrlEnv, type Env } from '@gpt/kit';
import { z } from 'zod';

export const DEV_ADMIN = { email: 'admin@example.com', password: 'admin12345' };

export const AuthConfig = serviceConfigSchema('auth', 8081, {
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').optional(),
  // OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(8192).default(19456),
  ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
  ARGON2_PARALLELISM: z.coerce.number().int().min(1).default(1),
  /** The site's public address: link tokens point at `<SITE_URL>/link/<token>`. */
  ...siteUrlEnv,
  /** Minutes a Telegram link token stays valid. */
  LINK_TOKEN_TTL_MIN: z.coerce.number().int().min(1).default(15),
  /** Minutes a password recovery link stays valid. */
  PASSWORD_RESET_TTL_MIN: z.coerce.number().int().min(5).max(60).default(30),
  /** Recovery links one account receives per hour at most; further requests get the same answer and no mail. */
  PASSWORD_RESET_PER_HOUR: z.coerce.number().int().min(1).default(3),
  /** Attempts to use recovery links starting alike (from every address) per window; the gateway limits each address. */
  PASSWORD_RESET_CONFIRM_PER_TOKEN_POINTS: z.coerce.number().int().min(1).default(5),
  PASSWORD_RESET_CONFIRM_PER_TOKEN_WINDOW_SEC: z.coerce.number().int().min(1).default(900),
  /** Hours an e-mail confirmation link stays valid. */
  EMAIL_CONFIRMATION_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(48),
  /** Confirmation mails one account may ask for again per hour (and at most one a minute). */
  EMAIL_CONFIRMATION_RESEND_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** `smtp://user:pass@host:port` (or `smtps://`). Without it no mail is sent; outside production it is written to the log. */
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('GPT-доступ <no-reply@localhost>'),
  /** Billing applies the admin's deposits and tariff changes (internal route, never through the gateway). */
  BILLING_URL: z.url().default('http://127.0.0.1:8083'),
  BILLING_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  /** Minutes the bot's single-use sign-in link (`/web`) stays valid. */
  SIGN_IN_LINK_TTL_MIN: z.coerce.number().int().min(1).max(60).default(10),
  /** The bot's token: the Telegram Login Widget's data is signed with it. Unset: the widget is off. */
  TELEGRAM_BOT_TOKEN: z.string().optional(),
  /** The bot's username, which the Login Widget shows (without @). */
  TELEGRAM_BOT_USERNAME: z
    .string()
    .regex(/^[A-Za-z]\w{3,31}$/, 'must be a Telegram username without @')
    .optional(),
})
  .superRefine((config, ctx) => {
    if (config.NODE_ENV === 'production' && (!config.ADMIN_EMAIL || !config.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_EMAIL'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD are required in production (the development admin is refused)',
      });
    }
  })
  .transform((config, ctx) => resolveSiteUrl(config, ctx, 8080));
export type AuthConfig = z.infer<typeof AuthConfig>;

export const loadAuthConfig = (env?: Env): AuthConfig => loadConfig(AuthConfig, env);
