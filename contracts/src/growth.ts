import { z } from 'zod';
import {
  CreditsAmount,
  Id,
  IdParam,
  IsoDateTime,
  listQuery,
  queryText,
  SerialId,
  TelegramId,
  TelegramIdInput,
} from './common';

/**
 * Growth: referral links rewarded on a friend's real payments, and promo codes. Billing keeps the
 * money side (rewards, codes, redemptions); auth gives every user a referral code and remembers,
 * at first contact only, who invited them.
 */

// ---------------------------------------------------------------------------------------------
// Referral codes and settings

/** A referral code: 8 letters and digits, upper case (read case-insensitively). */
export const REFERRAL_CODE_LENGTH = 8;
const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9]{4,32}$/;

/** A referral code from a link (`?ref=`, `/start ref_…`): anything unusable is dropped, never refused. */
export const ReferralCodeInput = z
  .string()
  .trim()
  .nullish()
  .transform((value) => (value && REFERRAL_CODE_PATTERN.test(value) ? value.toUpperCase() : null))
  .meta({ description: 'The inviting user’s referral code (case-insensitive); an unknown code is ignored' });

/** The `/start` payload of a bot referral link: `ref_<CODE>`. */
export const BOT_REFERRAL_PREFIX = 'ref_';

/**
 * The referral settings (sys_vals, seeded beside the others; billing learns them from
 * `setting.changed`): the percent of a paying friend's credits the inviter gets, and the most one
 * friend can earn them in all (0: no rewards).
 */
export const DEFAULT_REFERRAL_SETTINGS = {
  referral_percent: '10',
  referral_max_credits_per_friend: '50000',
} as const satisfies Record<string, string>;
export type ReferralSettingKey = keyof typeof DEFAULT_REFERRAL_SETTINGS;
export const REFERRAL_SETTING_KEYS = Object.keys(DEFAULT_REFERRAL_SETTINGS) as ReferralSettingKey[];

const REFERRAL_SETTING_MAX: Record<ReferralSettingKey, number> = {
  referral_percent: 100,
  referral_max_credits_per_friend: 1_000_000_000,
};

/** The whole number a referral setting holds, or null when it is not one within its range. */
export function parseReferralSetting(key: ReferralSettingKey, value: string): number | null {
  if (!/^\d{1,10}$/.test(value)) return null;
  const number = Number(value);
  return number <= REFERRAL_SETTING_MAX[key] ? number : null;
}

/** Whether `key` is a referral setting. */
export const isReferralSettingKey = (key: string): key is ReferralSettingKey =>
  (REFERRAL_SETTING_KEYS as string[]).includes(key);

/** The largest value a referral setting may take. */
export const referralSettingMax = (key: ReferralSettingKey) => REFERRAL_SETTING_MAX[key];

// ---------------------------------------------------------------------------------------------
// A user's referral figures

/** `GET /api/billing/referrals` (user) and `GET /api/bot/referrals` (bot): the code and what it brought. */
export const ReferralSummary = z
  .object({
    referral_code: z.string(),
    site_link: z.string().meta({ description: 'SITE_URL/?ref=CODE' }),
    bot_start_payload: z.string().meta({ description: 'ref_CODE: https://t.me/<bot>?start=<this>' }),
    invited: z.int().min(0).meta({ description: 'People who came through the links' }),
    paying: z.int().min(0).meta({ description: 'Of them, those with at least one succeeded payment' }),
    credits_earned: CreditsAmount.meta({ description: 'Bonus credits kept (after refunds took theirs back)' }),
    percent: z.int().min(0).max(100).meta({ description: 'The referral_percent setting now' }),
    max_credits_per_friend: CreditsAmount.meta({ description: 'The referral_max_credits_per_friend setting now' }),
  })
  .meta({ id: 'ReferralSummary' });
export type ReferralSummary = z.infer<typeof ReferralSummary>;

export const BotReferralsQuery = z.object({ telegram_id: TelegramIdInput });
export type BotReferralsQuery = z.infer<typeof BotReferralsQuery>;

/** `GET /api/admin/referrals/stats`: the dashboard tile, this calendar month (UTC). */
export const AdminReferralStats = z
  .object({
    month_start: IsoDateTime,
    invited: z.int().min(0).meta({ description: 'People who arrived through a referral link this month' }),
    paying: z.int().min(0).meta({ description: 'Invited people whose payment earned a bonus this month' }),
    credits_paid: CreditsAmount.meta({ description: 'Bonus credits paid out this month, less those taken back' }),
  })
  .meta({ id: 'AdminReferralStats' });
export type AdminReferralStats = z.infer<typeof AdminReferralStats>;

/** The bot tells the inviter about a bonus; see `referral.rewarded`. */
export const ReferralRewardedData = z
  .object({
    referrer_id: Id,
    friend_id: Id,
    payment_id: z.string(),
    credits: CreditsAmount.meta({ description: 'The bonus credited' }),
    rewarded_at: IsoDateTime,
  })
  .meta({ id: 'ReferralRewardedData' });
export type ReferralRewardedData = z.infer<typeof ReferralRewardedData>;

// ---------------------------------------------------------------------------------------------
// Promo codes

export const PromoKind = z.enum(['credits', 'tariff'], { error: 'Вид промокода: кредиты или тариф' });
export type PromoKind = z.infer<typeof PromoKind>;

const PROMO_CODE_MESSAGE = 'Код: от 3 до 32 латинских букв и цифр';

/** A promo code as typed: letters and digits, case-insensitive (kept upper case). */
export const PromoCodeText = z
  .string({ error: 'Введите промокод' })
  .trim()
  .min(1, { error: 'Введите промокод', abort: true })
  .max(32, { error: PROMO_CODE_MESSAGE, abort: true })
  .regex(/^[A-Za-z0-9]+$/, { error: PROMO_CODE_MESSAGE })
  .transform((value) => value.toUpperCase());

export const PromoCode = z
  .object({
    id: Id,
    code: z.string(),
    kind: PromoKind,
    credits: CreditsAmount.nullable().meta({ description: 'Credits given (kind credits)' }),
    tariff_id: Id.nullable().meta({ description: 'Tariff given (kind tariff)' }),
    tariff_name: z.string().nullable(),
    tariff_days: z.int().min(1).nullable().meta({ description: 'Days of the tariff (kind tariff)' }),
    max_uses: z.int().min(1),
    used_count: z.int().min(0),
    valid_from: IsoDateTime.nullable(),
    valid_until: IsoDateTime.nullable(),
    is_active: z.boolean(),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  })
  .meta({ id: 'PromoCode' });
export type PromoCode = z.infer<typeof PromoCode>;

const optionalDate = z
  .union([z.literal(''), IsoDateTime], { error: 'Дата должна быть в формате ISO-8601' })
  .nullish()
  .transform((value) => (value ? value : null));

/** Body of `POST /api/admin/promo-codes` and `PUT /api/admin/promo-codes/{id}`. */
export const PromoCodeInput = z
  .object({
    code: PromoCodeText.pipe(z.string().min(3, { error: PROMO_CODE_MESSAGE })),
    kind: PromoKind,
    credits: z
      .int({ error: 'Кредиты: целое число от 1 до 10 000 000' })
      .min(1, { error: 'Кредиты: целое число от 1 до 10 000 000' })
      .max(10_000_000, { error: 'Кредиты: целое число от 1 до 10 000 000' })
      .nullish()
      .transform((value) => value ?? null),
    tariff_id: SerialId.nullish().transform((value) => value ?? null),
    tariff_days: z
      .int({ error: 'Дней тарифа: целое число от 1 до 3650' })
      .min(1, { error: 'Дней тарифа: целое число от 1 до 3650' })
      .max(3650, { error: 'Дней тарифа: целое число от 1 до 3650' })
      .nullish()
      .transform((value) => value ?? null),
    max_uses: z
      .int({ error: 'Число использований: целое число от 1 до 1 000 000' })
      .min(1, { error: 'Число использований: целое число от 1 до 1 000 000' })
      .max(1_000_000, { error: 'Число использований: целое число от 1 до 1 000 000' }),
    valid_from: optionalDate,
    valid_until: optionalDate,
    is_active: z.boolean().default(true),
  })
  .superRefine((input, ctx) => {
    if (input.kind === 'credits' && input.credits === null) {
      ctx.addIssue({ code: 'custom', path: ['credits'], message: 'Укажите, сколько кредитов даёт код' });
    }
    if (input.kind === 'tariff' && input.tariff_id === null) {
      ctx.addIssue({ code: 'custom', path: ['tariff_id'], message: 'Выберите тариф' });
    }
    if (input.kind === 'tariff' && input.tariff_days === null) {
      ctx.addIssue({ code: 'custom', path: ['tariff_days'], message: 'Укажите, на сколько дней даётся тариф' });
    }
    if (input.valid_from && input.valid_until && Date.parse(input.valid_from) >= Date.parse(input.valid_until)) {
      ctx.addIssue({ code: 'custom', path: ['valid_until'], message: 'Конец действия должен быть позже начала' });
    }
  })
  .meta({ id: 'PromoCodeInput' });
export type PromoCodeInput = z.infer<typeof PromoCodeInput>;

export const PromoCodeResponse = z
  .object({ success: z.literal(true), promo_code: PromoCode })
  .meta({ id: 'PromoCodeResponse' });
export type PromoCodeResponse = z.infer<typeof PromoCodeResponse>;

export const ADMIN_PROMO_CODES_SORT_FIELDS = [
  'id',
  'code',
  'kind',
  'max_uses',
  'used_count',
  'valid_from',
  'valid_until',
  'is_active',
  'created_at',
] as const;

/** `GET /api/admin/promo-codes`: default sort id descending; `search` matches the code. */
export const AdminPromoCodesQuery = listQuery({
  sortFields: ADMIN_PROMO_CODES_SORT_FIELDS,
  defaultSort: { field: 'id', order: 'desc' },
}).extend({ search: queryText(32) });
export type AdminPromoCodesQuery = z.infer<typeof AdminPromoCodesQuery>;

export const AdminPromoCodesResponse = z
  .object({ data: z.array(PromoCode), total: z.int().min(0) })
  .meta({ id: 'AdminPromoCodesResponse' });
export type AdminPromoCodesResponse = z.infer<typeof AdminPromoCodesResponse>;

export const PromoCodeIdParams = z.object({ id: IdParam });
export type PromoCodeIdParams = z.infer<typeof PromoCodeIdParams>;

/** One use of a code, for the view dialog. */
export const PromoRedemption = z
  .object({
    user_id: Id,
    email: z.string().nullable(),
    username: z.string().nullable(),
    telegram_id: TelegramId.nullable(),
    redeemed_at: IsoDateTime,
  })
  .meta({ id: 'PromoRedemption' });
export type PromoRedemption = z.infer<typeof PromoRedemption>;

export const PromoCodeDetailResponse = z
  .object({ promo_code: PromoCode, redemptions: z.array(PromoRedemption) })
  .meta({ id: 'PromoCodeDetailResponse' });
export type PromoCodeDetailResponse = z.infer<typeof PromoCodeDetailResponse>;

/** `POST /api/billing/promo-codes/redeem` (user). */
export const RedeemPromoRequest = z.object({ code: PromoCodeText }).meta({ id: 'RedeemPromoRequest' });
export type RedeemPromoRequest = z.infer<typeof RedeemPromoRequest>;

/** `POST /api/bot/promo-codes/redeem` (bot). */
export const BotRedeemPromoRequest = RedeemPromoRequest.extend({ telegram_id: TelegramIdInput }).meta({
  id: 'BotRedeemPromoRequest',
});
export type BotRedeemPromoRequest = z.infer<typeof BotRedeemPromoRequest>;

export const RedeemPromoResponse = z
  .object({
    success: z.literal(true),
    code: z.string(),
    kind: PromoKind,
    credits: CreditsAmount.nullable(),
    tariff_name: z.string().nullable(),
    tariff_end_date: IsoDateTime.nullable(),
    message: z.string().meta({ description: 'What the person got, in Russian' }),
  })
  .meta({ id: 'RedeemPromoResponse' });
export type RedeemPromoResponse = z.infer<typeof RedeemPromoResponse>;
