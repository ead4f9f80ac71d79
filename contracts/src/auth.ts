import { z } from 'zod';
import {
  BigIdParam,
  Credits,
  CreditsAmount,
  Id,
  IdParam,
  IsoDateTime,
  listQuery,
  Money,
  nullableText,
  QueryId,
  queryText,
  SerialId,
  TelegramId,
  TelegramIdInput,
  UsdAmount,
} from './common';
import { AuditReason } from './audit';
import { ReferralCodeInput } from './growth';

/**
 * Auth service: sign-up, login, profile, password change, Telegram linking, bot users and the
 * admin users screen. Validation texts are the product's (docs/product.md, Validation) so the server answers 400 with them.
 */

// ---------------------------------------------------------------------------------------------
// Field rules (docs/product.md, Validation and Limits: e-mail ≥ 3 characters, password ≥ 6)

export const EMAIL_MIN_LENGTH = 3;
export const PASSWORD_MIN_LENGTH = 6;
const EMAIL_MAX_LENGTH = 254;
const PASSWORD_MAX_LENGTH = 128;

const tooLongEmail = `Email должен быть не длиннее ${EMAIL_MAX_LENGTH} символов`;
const tooLongPassword = `Пароль должен быть не длиннее ${PASSWORD_MAX_LENGTH} символов`;

/** An e-mail input: trimmed, lower-cased, checked in the spec's order (required → length → format). */
export function emailInput(requiredMessage: string) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .toLowerCase()
    .min(1, { error: requiredMessage, abort: true })
    .min(EMAIL_MIN_LENGTH, { error: 'Email должен быть не короче 3 символов', abort: true })
    .max(EMAIL_MAX_LENGTH, { error: tooLongEmail, abort: true })
    .email({ error: 'Некорректный email' });
}

/** A password input: required, then at least 6 characters (not trimmed: spaces are characters). */
export function passwordInput(requiredMessage: string, tooShortMessage: string) {
  return z
    .string({ error: requiredMessage })
    .min(1, { error: requiredMessage, abort: true })
    .min(PASSWORD_MIN_LENGTH, { error: tooShortMessage, abort: true })
    .max(PASSWORD_MAX_LENGTH, { error: tooLongPassword });
}

export const UserRole = z.enum(['admin', 'user'], { error: 'Роль должна быть admin или user' });
export type UserRole = z.infer<typeof UserRole>;

// ---------------------------------------------------------------------------------------------
// Session: login, register, profile, password

/** The personal-account user (docs/product.md, Data) plus id; also the `user` of login and register answers. */
export const UserProfile = z
  .object({
    id: Id,
    email: z.string(),
    role: UserRole,
    created_at: IsoDateTime,
    tariff_id: Id.nullable(),
    tariff_name: z.string(),
    credits: Credits,
    included_credits: Credits,
    held_credits: CreditsAmount.meta({ description: 'Reserved by the bot for calls in progress' }),
    available_credits: Credits.meta({ description: 'credits + included_credits − held_credits' }),
    welcome_credits: CreditsAmount.meta({
      description: 'Free credits given once, when the account is confirmed (0: none)',
    }),
    email_confirmed: z
      .boolean()
      .meta({ description: 'Whether the account is confirmed (the e-mail link; bot and admin accounts at creation)' }),
    monthly_price: Money,
    tariff_end_date: IsoDateTime.nullable(),
    telegram_linked: z.boolean(),
    telegram_id: TelegramId.nullable(),
    telegram_username: z.string().nullable(),
    telegram_email: z.string().nullable().meta({ description: 'E-mail for payment receipts' }),
  })
  .meta({ id: 'UserProfile' });
export type UserProfile = z.infer<typeof UserProfile>;

/**
 * `GET`/`PUT /api/auth/profile/password-reset`: whether password-reset links go to the linked Telegram account
 * instead of the e-mail (the owner's choice, signed in; it lapses when another Telegram account is linked).
 */
export const PasswordResetChannel = z
  .object({
    telegram: z.boolean({ error: 'telegram: true или false' }).meta({
      description: 'Reset links go to the linked Telegram account (true) or to the e-mail (false)',
    }),
  })
  .meta({ id: 'PasswordResetChannel' });
export type PasswordResetChannel = z.infer<typeof PasswordResetChannel>;

export const LoginRequest = z
  .object({
    email: emailInput('Введите email'),
    password: passwordInput('Пароль обязателен для заполнения', 'Пароль должен быть не менее 6 символов'),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const RegisterRequest = z
  .object({
    email: emailInput('Email обязателен для заполнения'),
    password: passwordInput('Пароль обязателен для заполнения', 'Пароль должен быть не менее 6 символов'),
    utm_source: nullableText(100).meta({ description: 'utm_source captured from the landing URL' }),
    ref: ReferralCodeInput,
  })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** Answer of login and register: the JWT and the user to store (docs/product.md, Data session). */
export const AuthResponse = z
  .object({ token: z.string().meta({ description: 'JWT access token (HS256)' }), user: UserProfile })
  .meta({ id: 'AuthResponse' });
export type AuthResponse = z.infer<typeof AuthResponse>;

export const ChangePasswordRequest = z
  .object({
    currentPassword: z
      .string({ error: 'Введите текущий пароль' })
      .min(1, { error: 'Введите текущий пароль', abort: true })
      .max(PASSWORD_MAX_LENGTH, { error: tooLongPassword }),
    newPassword: passwordInput('Введите новый пароль', 'Пароль должен содержать минимум 6 символов'),
  })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** Every token issued before is revoked; the answer carries the new one. */
export const ChangePasswordResponse = z
  .object({ success: z.literal(true), message: z.string(), token: z.string() })
  .meta({ id: 'ChangePasswordResponse', example: { success: true, message: 'Пароль успешно изменен', token: '…' } });
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponse>;

// Password recovery: a single-use, short-lived link by e-mail and, for a linked account, by the bot.

/** `POST /api/auth/password-reset`: the e-mail of the account to recover. */
export const PasswordResetRequest = z
  .object({ email: emailInput('Введите email') })
  .meta({ id: 'PasswordResetRequest' });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequest>;

/** The same answer whether the e-mail belongs to an account or not. */
export const PASSWORD_RESET_ACCEPTED =
  'Если аккаунт с таким email существует, мы отправили на него ссылку для смены пароля. Ссылка действует 30 минут.';
export const PasswordResetAccepted = z
  .object({ success: z.literal(true), message: z.string() })
  .meta({ id: 'PasswordResetAccepted', example: { success: true, message: PASSWORD_RESET_ACCEPTED } });
export type PasswordResetAccepted = z.infer<typeof PasswordResetAccepted>;

/** `POST /api/auth/password-reset/confirm`: the token from `/reset-password/{token}` and the new password. */
export const PasswordResetConfirmRequest = z
  .object({
    token: z
      .string({ error: 'Ссылка для смены пароля недействительна' })
      .trim()
      .min(1, { error: 'Ссылка для смены пароля недействительна', abort: true })
      .max(200, { error: 'Ссылка для смены пароля недействительна' }),
    newPassword: passwordInput('Введите новый пароль', 'Пароль должен содержать минимум 6 символов'),
  })
  .meta({ id: 'PasswordResetConfirmRequest' });
export type PasswordResetConfirmRequest = z.infer<typeof PasswordResetConfirmRequest>;

/** Every older session is revoked; the answer signs the user in with the new password. */
export const PasswordResetConfirmResponse = AuthResponse.extend({ message: z.string() }).meta({
  id: 'PasswordResetConfirmResponse',
});
export type PasswordResetConfirmResponse = z.infer<typeof PasswordResetConfirmResponse>;

// E-mail confirmation: the welcome credits wait for it (docs/product.md, Welcome credits).

const invalidConfirmationLink = 'Ссылка для подтверждения e-mail недействительна';

/** `POST /api/auth/email-confirmation/confirm`: the token from `/confirm-email?token=…`. */
export const EmailConfirmationConfirmRequest = z
  .object({
    token: z
      .string({ error: invalidConfirmationLink })
      .trim()
      .min(1, { error: invalidConfirmationLink, abort: true })
      .max(200, { error: invalidConfirmationLink }),
  })
  .meta({ id: 'EmailConfirmationConfirmRequest' });
export type EmailConfirmationConfirmRequest = z.infer<typeof EmailConfirmationConfirmRequest>;

/** The answer of a confirmation and of a new confirmation mail. */
export const EmailConfirmationResponse = z
  .object({ success: z.literal(true), message: z.string() })
  .meta({ id: 'EmailConfirmationResponse', example: { success: true, message: 'E-mail подтверждён' } });
export type EmailConfirmationResponse = z.infer<typeof EmailConfirmationResponse>;

// Client-side forms (docs/product.md, Validation): the extra fields never reach the server. A filled-in confirmation that differs
// says so at once, whatever else the form still lacks (checked beside the fields, so their own rules cannot stop it).

const mismatch = { error: 'Пароли не совпадают', path: ['confirmPassword'] };
const filledIn = (value: unknown) => typeof value === 'string' && value !== '';

const passwordConfirmed = z
  .object({ password: z.unknown(), confirmPassword: z.unknown() })
  .refine((form) => !filledIn(form.confirmPassword) || form.password === form.confirmPassword, mismatch);

const newPasswordConfirmed = z
  .object({ newPassword: z.unknown(), confirmPassword: z.unknown() })
  .refine((form) => !filledIn(form.confirmPassword) || form.newPassword === form.confirmPassword, mismatch);

/** The registration form: confirm password and the agreement checkbox on top of RegisterRequest. */
export const RegisterForm = z.intersection(
  z.object({
    // docs/product.md, Validation gives the registration e-mail two rules only: required, then a valid address.
    email: z
      .string({ error: 'Email обязателен для заполнения' })
      .trim()
      .min(1, { error: 'Email обязателен для заполнения', abort: true })
      .email({ error: 'Некорректный email' }),
    password: passwordInput('Пароль обязателен для заполнения', 'Пароль должен быть не менее 6 символов'),
    confirmPassword: z.string({ error: 'Подтвердите пароль' }).min(1, { error: 'Подтвердите пароль', abort: true }),
    agreement: z.literal(true, { error: 'Необходимо согласиться с условиями' }),
  }),
  passwordConfirmed,
);
export type RegisterForm = z.infer<typeof RegisterForm>;

const newPasswordFields = z.object({
  newPassword: passwordInput('Введите новый пароль', 'Пароль должен содержать минимум 6 символов'),
  confirmPassword: z
    .string({ error: 'Подтвердите новый пароль' })
    .min(1, { error: 'Подтвердите новый пароль', abort: true }),
});

/** The change-password dialog (docs/product.md, Validation). */
export const ChangePasswordForm = z.intersection(
  newPasswordFields.extend({
    currentPassword: z.string({ error: 'Введите текущий пароль' }).min(1, { error: 'Введите текущий пароль' }),
  }),
  newPasswordConfirmed,
);
export type ChangePasswordForm = z.infer<typeof ChangePasswordForm>;

/** The new password of a recovery link: the change-password dialog's rules and texts without the current one. */
export const ResetPasswordForm = z.intersection(newPasswordFields, newPasswordConfirmed);
export type ResetPasswordForm = z.infer<typeof ResetPasswordForm>;

// ---------------------------------------------------------------------------------------------
// Telegram linking

/**
 * Why a link is refused, by the error `code` auth answers: /link-error shows the text of its `?code=`
 * (never a text from the address, which anyone could write).
 */
export const LINK_ERROR_MESSAGES = {
  link_token_invalid: 'Ссылка для связки аккаунтов недействительна. Получите новую ссылку в боте',
  link_token_expired: 'Срок действия ссылки истёк. Получите новую ссылку в боте',
  link_token_used: 'Ссылка уже использована. Получите новую ссылку в боте',
  telegram_already_linked: 'Этот Telegram-аккаунт уже связан с другим аккаунтом на сайте',
  account_already_linked: 'Ваш аккаунт уже связан с другим Telegram-аккаунтом',
} as const;
export type LinkErrorCode = keyof typeof LINK_ERROR_MESSAGES;

/** `POST /api/auth/link`: the link token from `/link/{token}`. */
export const LinkAccountRequest = z
  .object({
    token: z
      .string({ error: 'Ссылка для связки аккаунтов недействительна' })
      .trim()
      .min(1, { error: 'Ссылка для связки аккаунтов недействительна', abort: true })
      .max(200, { error: 'Ссылка для связки аккаунтов недействительна' }),
  })
  .meta({ id: 'LinkAccountRequest' });
export type LinkAccountRequest = z.infer<typeof LinkAccountRequest>;

export const LinkAccountResponse = z
  .object({
    success: z.literal(true),
    merged: z.boolean().meta({ description: 'True when a separate Telegram account was merged into this one' }),
    user: UserProfile,
  })
  .meta({ id: 'LinkAccountResponse' });
export type LinkAccountResponse = z.infer<typeof LinkAccountResponse>;

/**
 * `POST /api/auth/link/preview`: whose Telegram account a link token would bind, shown on the link
 * page before the owner presses «Связать»; the token stays unused.
 */
export const LinkPreviewResponse = z
  .object({
    telegram: z.object({
      first_name: z.string().nullable(),
      last_name: z.string().nullable(),
      username: z.string().nullable().meta({ description: 'The @username, without the @' }),
      photo: z.string().nullable().meta({ description: 'The profile photo the bot found, as a data URL' }),
    }),
    expires_at: IsoDateTime,
  })
  .meta({ id: 'LinkPreviewResponse' });
export type LinkPreviewResponse = z.infer<typeof LinkPreviewResponse>;

/** `DELETE /api/auth/link`: the site account without its Telegram account (docs/security.md, Linking). */
export const UnlinkTelegramResponse = z
  .object({ success: z.literal(true), message: z.string(), user: UserProfile })
  .meta({ id: 'UnlinkTelegramResponse' });
export type UnlinkTelegramResponse = z.infer<typeof UnlinkTelegramResponse>;

// ---------------------------------------------------------------------------------------------
// Bot (X-Bot-Key)

/** `POST /api/bot/users`: upsert by telegram_id with the current Telegram profile. */
export const BotUpsertUserRequest = z
  .object({
    telegram_id: TelegramIdInput,
    username: nullableText(64),
    first_name: nullableText(128),
    last_name: nullableText(128),
    utm_source: nullableText(100),
    referral_code: ReferralCodeInput.optional().meta({
      description: 'From a /start ref_<CODE> link; used only when the Telegram user is new',
    }),
    language_code: z
      .string()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, { error: 'language_code: языковой тег вроде ru или en-US' })
      .max(35)
      .nullable()
      .optional()
      .meta({ description: "The language of the user's Telegram app (IETF tag); absent: unchanged" }),
  })
  .meta({ id: 'BotUpsertUserRequest' });
export type BotUpsertUserRequest = z.infer<typeof BotUpsertUserRequest>;

export const BotUser = z
  .object({
    id: Id,
    telegram_id: TelegramId,
    username: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    utm_source: z.string().nullable(),
    language_code: z.string().nullable(),
    email: z.string().nullable().meta({ description: 'E-mail of the linked web account, if any' }),
    telegram_email: z.string().nullable(),
    role: UserRole,
    web_linked: z.boolean().meta({ description: 'The Telegram account is linked to a web account' }),
    created_at: IsoDateTime,
  })
  .meta({ id: 'BotUser' });
export type BotUser = z.infer<typeof BotUser>;

/** The Telegram account's profile photo as the link page shows it: a small JPEG, PNG or WebP as a data URL. */
export const LINK_PHOTO_MAX_CHARS = 100_000;
const linkPhoto = z
  .string()
  .max(LINK_PHOTO_MAX_CHARS, { error: 'Фото профиля слишком большое' })
  .regex(/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/]+={0,2}$/, {
    error: 'Фото профиля — картинка JPEG, PNG или WebP в виде data URL',
  });

export const BotLinkTokenRequest = z
  .object({
    telegram_id: TelegramIdInput,
    photo: linkPhoto.optional().meta({ description: "The Telegram account's profile photo, if it has one" }),
  })
  .meta({ id: 'BotLinkTokenRequest' });
export type BotLinkTokenRequest = z.infer<typeof BotLinkTokenRequest>;

/** A single-use link token (stored hashed, valid 15 minutes); `url` is `<site>/link/<token>`. */
export const BotLinkTokenResponse = z
  .object({ token: z.string(), url: z.string(), expires_at: IsoDateTime })
  .meta({ id: 'BotLinkTokenResponse' });
export type BotLinkTokenResponse = z.infer<typeof BotLinkTokenResponse>;

/**
 * `PUT /api/bot/users/{telegram_id}/blocked`: the bot tells whether the Telegram user has blocked it (Telegram
 * answered 403) or, by writing again, unblocked it (docs/architecture.md, Calls between services).
 */
export const BotTelegramBlockedRequest = z
  .object({ blocked: z.boolean({ error: 'blocked: ожидается true или false' }) })
  .meta({ id: 'BotTelegramBlockedRequest' });
export type BotTelegramBlockedRequest = z.infer<typeof BotTelegramBlockedRequest>;

export const BotTelegramBlockedResponse = z
  .object({
    telegram_id: TelegramId,
    telegram_blocked_at: IsoDateTime.nullable().meta({ description: 'Since when the user has the bot blocked' }),
  })
  .meta({ id: 'BotTelegramBlockedResponse' });
export type BotTelegramBlockedResponse = z.infer<typeof BotTelegramBlockedResponse>;

// ---------------------------------------------------------------------------------------------
// Admin users

/** A row of the admin users table (docs/product.md, Data). */
export const AdminUserRow = z
  .object({
    id: Id,
    email: z.string().nullable(),
    username: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    telegram_id: TelegramId.nullable(),
    telegram_blocked_at: IsoDateTime.nullable().meta({
      description: 'The user has blocked the bot since then (Telegram answered 403); null: not blocked',
    }),
    utm_source: z.string().nullable().meta({ description: "Shown as 'organic' when empty" }),
    credits: Credits,
    included_credits: Credits,
    money_spent: UsdAmount.meta({ description: 'Dollars spent on messages' }),
    money_deposited: Money.meta({ description: 'Roubles paid in' }),
    messages_count: z.int().min(0),
    role: UserRole,
    tariff_id: Id.nullable(),
    tariff_name: z.string().nullable().meta({ description: "Shown as 'Не указан' when empty" }),
    referred_by: Id.nullable().meta({ description: 'The user who invited this one' }),
    referrer: z.string().nullable().meta({ description: "The inviter's e-mail, else username, else #id" }),
    created_at: IsoDateTime,
  })
  .meta({ id: 'AdminUserRow' });
export type AdminUserRow = z.infer<typeof AdminUserRow>;

export const ADMIN_USERS_SORT_FIELDS = [
  'id',
  'email',
  'username',
  'first_name',
  'last_name',
  'utm_source',
  'credits',
  'money_spent',
  'money_deposited',
  'messages_count',
  'role',
  'tariff_name',
  'created_at',
] as const;
export const AdminUsersSortField = z.enum(ADMIN_USERS_SORT_FIELDS);
export type AdminUsersSortField = z.infer<typeof AdminUsersSortField>;

/** `GET /api/admin/users`: default sort id descending, page size 10; text filters are substrings. */
export const AdminUsersQuery = listQuery({
  sortFields: ADMIN_USERS_SORT_FIELDS,
  defaultSort: { field: 'id', order: 'desc' },
}).extend({
  email: queryText(),
  username: queryText(),
  utm_source: queryText().meta({ description: "'organic' selects users without a source" }),
  tariff_id: QueryId,
  referrer: queryText().meta({
    description: "The inviter's e-mail, username or referral code (a part of it); '*' selects every invited user",
  }),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;

export const AdminUsersResponse = z
  .object({ users: z.array(AdminUserRow), total: z.int().min(0) })
  .meta({ id: 'AdminUsersResponse' });
export type AdminUsersResponse = z.infer<typeof AdminUsersResponse>;

/** `PUT /api/admin/users/{id}`: every field optional; a deposit of 0 changes nothing. */
export const AdminUserUpdateRequest = z
  .object({
    email: emailInput('Введите email').optional(),
    role: UserRole.optional(),
    tariff_id: SerialId.nullable().optional(),
    depositAmount: z
      .int({ error: 'Сумма пополнения должна быть целым неотрицательным числом' })
      .min(0, { error: 'Сумма пополнения должна быть целым неотрицательным числом' })
      .max(1_000_000_000, { error: 'Слишком большая сумма пополнения' })
      .optional()
      .meta({ description: 'Credits to add' }),
    reason: AuditReason.optional().meta({ description: 'Why: kept in the audit log with the change' }),
  })
  .meta({ id: 'AdminUserUpdateRequest' });
export type AdminUserUpdateRequest = z.infer<typeof AdminUserUpdateRequest>;

/** The admin app's edit form: a deposit needs its reason (the API takes one without, as scripts send it). */
export const AdminUserEditForm = AdminUserUpdateRequest.superRefine((input, ctx) => {
  if ((input.depositAmount ?? 0) > 0 && !input.reason) {
    ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Укажите причину пополнения' });
  }
});

export const AdminUserUpdateResponse = z
  .object({ success: z.literal(true), user: AdminUserRow })
  .meta({ id: 'AdminUserUpdateResponse' });
export type AdminUserUpdateResponse = z.infer<typeof AdminUserUpdateResponse>;

export const UserIdParams = z.object({ id: IdParam });
export type UserIdParams = z.infer<typeof UserIdParams>;

export const UtmStat = z
  .object({ utm_source: z.string(), count: z.int().min(0) })
  .meta({ id: 'UtmStat', example: { utm_source: 'organic', count: 12 } });
export type UtmStat = z.infer<typeof UtmStat>;

export const UtmStatsResponse = z.object({ stats: z.array(UtmStat) }).meta({ id: 'UtmStatsResponse' });
export type UtmStatsResponse = z.infer<typeof UtmStatsResponse>;

/**
 * auth's internal reads of one user's snapshot (the `user.updated` data), for a service whose copy of
 * the user has not arrived yet by event: `GET {AUTH_URL}/internal/users/{id}` with the caller's own
 * bearer token (its user, or an admin), `GET {AUTH_URL}/internal/telegram-users/{telegram_id}` with the
 * bot key. Never routed by the gateway.
 */
export const internalUserPath = (userId: number) => `/internal/users/${userId}`;
export const internalTelegramUserPath = (telegramId: number) => `/internal/telegram-users/${telegramId}`;
export const TelegramIdParams = z.object({ telegram_id: BigIdParam });
