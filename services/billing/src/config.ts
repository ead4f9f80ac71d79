import { isIP } from 'node:net';
import { loadConfig, resolveSiteUrl, serviceConfigSchema, siteUrlEnv, type Env } from '@gpt/kit';
import { z } from 'zod';

const seconds = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

/** A comma-separated list of IP addresses and CIDR subnets (IPv4 and IPv6). */
const addressList = (fallback = '') =>
  z
    .string()
    .default(fallback)
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every(isAddressOrSubnet), {
      message: 'each entry must be an IP address or a CIDR subnet',
    })
    .refine((entries) => entries.every((entry) => !['0.0.0.0/0', '::/0'].includes(entry)), {
      message: 'list specific addresses; a subnet that admits everyone is no allowlist',
    });

function isAddressOrSubnet(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

/** The addresses YooKassa publishes for its HTTP notifications (yookassa.ru/developers, "IP addresses"). */
export const YOOKASSA_PUBLISHED_IPS = [
  '185.71.76.0/27',
  '185.71.77.0/27',
  '77.75.153.0/25',
  '77.75.156.11',
  '77.75.156.35',
  '77.75.154.128/25',
  '2a02:5180::/32',
];

export const BillingConfig = serviceConfigSchema('billing', 8083, {
  /** auth, read when a user's snapshot has not reached billing by event yet (a payment right after sign-up). */
  AUTH_URL: z.url().default('http://127.0.0.1:8081'),
  /** YooKassa API v3 base URL (tests point it at a fake provider on localhost). */
  YOOKASSA_API_URL: z
    .url()
    .default('https://api.yookassa.ru/v3')
    .transform((url) => url.replace(/\/+$/, '')),
  /** Shop id and secret key (HTTP Basic auth). Both unset: the sandbox provider confirms payments on a local page. */
  YOOKASSA_SHOP_ID: z.string().optional(),
  YOOKASSA_SECRET_KEY: z.string().optional(),
  /** Notifications are accepted only from these addresses when set; unset: YooKassa's own in production, no IP check otherwise. */
  YOOKASSA_TRUSTED_IPS: addressList(),
  /** How long one call to the provider may take. */
  YOOKASSA_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Proxies (the gateway) whose X-Forwarded-For billing believes when checking the notification's address. */
  BILLING_TRUST_PROXY: addressList('127.0.0.1,::1'),
  /** The bot service, which calls Telegram's refundStarPayment when an admin refunds a Stars payment. */
  BOT_URL: z.url().default('http://127.0.0.1:8086'),
  /** The site's public address: where the provider sends the payer back and the sandbox page lives. */
  ...siteUrlEnv,
  /** Payments still pending after this long are re-fetched from the provider by the reconciliation job. */
  PAYMENT_RECONCILE_AFTER_SEC: seconds(3600),
  PAYMENT_RECONCILE_INTERVAL_SEC: seconds(300),
  /** The comparison with YooKassa's and Telegram's own records: how many days back, and how often (docs/money.md). */
  RECONCILE_DAYS: seconds(3),
  RECONCILE_INTERVAL_SEC: seconds(86_400),
  /** A bot payment waiting this long for its receipt e-mail is canceled (reason `email_not_given`); checked as often as reconciliation. */
  PAYMENT_EMAIL_WAIT_SEC: seconds(1800),
  /** How long a Stars invoice can be paid: past it the pre-checkout declines it (docs/money.md). */
  STAR_INVOICE_TTL_SEC: seconds(3600),
  /** How long a card payment can be paid: past it one still unpaid is canceled (docs/security.md, Prices hold until paid). */
  CARD_PAYMENT_TTL_SEC: seconds(3600),
  /** How often expired tariffs are reverted to Base. */
  TARIFF_EXPIRY_INTERVAL_SEC: seconds(60),
  /** How often due renewals are charged, reminders sent and unpaid subscriptions ended (docs/money.md, Subscriptions). */
  RENEWAL_INTERVAL_SEC: seconds(300),
  /** How long a hold of the bot reserves credits when neither a message nor the bot ends it. */
  HOLD_TTL_SEC: seconds(600),
  /** How often lapsed holds are marked expired (they stop counting at their expiry regardless). */
  HOLD_EXPIRY_INTERVAL_SEC: seconds(60),
  /** Payments the bot may create per user per window: the gateway's limit on the site's payments, by the same names. */
  RATE_LIMIT_PAYMENT_POINTS: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_PAYMENT_WINDOW_SEC: seconds(600),
})
  .superRefine((config, ctx) => {
    if (Boolean(config.YOOKASSA_SHOP_ID) !== Boolean(config.YOOKASSA_SECRET_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['YOOKASSA_SHOP_ID'],
        message: 'set both YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY, or neither (sandbox payments)',
      });
    }
    if (config.NODE_ENV === 'production' && !config.YOOKASSA_SHOP_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['YOOKASSA_SHOP_ID'],
        message: 'YooKassa keys are required in production (the sandbox provider would confirm payments for free)',
      });
    }
  })
  .transform((config, ctx) => ({
    ...resolveSiteUrl(config, ctx, 8080),
    YOOKASSA_TRUSTED_IPS:
      config.NODE_ENV === 'production' && config.YOOKASSA_TRUSTED_IPS.length === 0
        ? YOOKASSA_PUBLISHED_IPS
        : config.YOOKASSA_TRUSTED_IPS,
  }));
export type BillingConfig = z.infer<typeof BillingConfig>;

export const loadBillingConfig = (env?: Env): BillingConfig => loadConfig(BillingConfig, env);

/** True when no YooKassa keys are set: payments go to the sandbox provider. */
export const usesSandbox = (config: BillingConfig): boolean => !config.YOOKASSA_SHOP_ID || !config.YOOKASSA_SECRET_KEY;
