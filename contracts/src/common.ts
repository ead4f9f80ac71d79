import { z } from 'zod';

/**
 * Building blocks shared by every service's contract: the error body, pagination, ids, dates,
 * exact money (decimal strings), credits (integers) and list query parameters.
 */

// ---------------------------------------------------------------------------------------------
// Services

/** The services that own routes and publish events (OpenAPI tag = owning service). */
export const ServiceName = z.enum(['auth', 'content', 'billing', 'chat-history', 'metrics', 'bot']);
export type ServiceName = z.infer<typeof ServiceName>;

// ---------------------------------------------------------------------------------------------
// Errors and generic answers

/** One problem of a failed validation, as the error middleware lists them in `details`. */
export const ValidationIssue = z
  .object({
    path: z.string().meta({ description: 'Dotted path of the field, e.g. "email" or "category_ids.0"' }),
    message: z.string().meta({ description: 'Human message (Russian)' }),
  })
  .meta({ id: 'ValidationIssue' });
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/** The body of every error answer: `error` is a sentence people read, `code` is for programs. */
export const ErrorBody = z
  .object({
    error: z.string().meta({ description: 'Human-readable message (Russian where a person reads it)' }),
    code: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/)
      .meta({ description: 'snake_case machine code, e.g. validation_error, not_found' }),
    details: z
      .array(z.unknown())
      .optional()
      .meta({ description: 'Extra data; for validation_error a list of ValidationIssue' }),
  })
  .meta({ id: 'ErrorBody', example: { error: 'Некорректный email', code: 'validation_error' } });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Answer of mutations that return nothing else (deletes, feedback, webhooks). */
export const SuccessResponse = z
  .object({ success: z.literal(true), message: z.string().optional() })
  .meta({ id: 'SuccessResponse' });
export type SuccessResponse = z.infer<typeof SuccessResponse>;

// ---------------------------------------------------------------------------------------------
// Ids and dates

/** Database ids are positive integers (within Number.MAX_SAFE_INTEGER). */
export const Id = z.int().positive();
export type Id = z.infer<typeof Id>;

const idMessage = 'Идентификатор должен быть целым положительным числом';

/** The largest PostgreSQL `integer`: ids of `serial` columns (all but messages) never exceed it. */
export const MAX_SERIAL_ID = 2_147_483_647;
const serialIdMessage = `Идентификатор не может быть больше ${MAX_SERIAL_ID}`;

/** An id in input that refers to a `serial` row: a bigger number names nothing and must not reach the database. */
export const SerialId = Id.max(MAX_SERIAL_ID, { error: serialIdMessage });

/** A `bigserial` id (messages) taken from a path or query string ("42" → 42), within JavaScript's exact integers. */
export const BigIdParam = z.coerce
  .number({ error: idMessage })
  .int({ error: idMessage })
  .positive({ error: idMessage })
  .max(Number.MAX_SAFE_INTEGER, { error: idMessage });

/** An id of a `serial` row taken from a path or query string ("42" → 42). */
export const IdParam = BigIdParam.max(MAX_SERIAL_ID, { error: serialIdMessage });

/** `/{id}` path parameters. */
export const IdParams = z.object({ id: IdParam });
export type IdParams = z.infer<typeof IdParams>;

/** ISO-8601 date-time with a zone (services send `Date#toISOString()`). */
export const IsoDateTime = z.iso.datetime({ offset: true, error: 'Дата должна быть в формате ISO-8601' });
export type IsoDateTime = z.infer<typeof IsoDateTime>;

/** ISO-8601 calendar date, `YYYY-MM-DD`. */
export const IsoDate = z.iso.date();
export type IsoDate = z.infer<typeof IsoDate>;

/**
 * Telegram user id. Telegram promises at most 52 significant bits, so a JSON number is exact;
 * inputs also accept a string of digits.
 */
export const TelegramId = z.int().positive();
export type TelegramId = z.infer<typeof TelegramId>;

const telegramIdMessage = 'telegram_id должен быть целым положительным числом';
export const TelegramIdInput = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,16}$/, { error: telegramIdMessage }),
    ],
    { error: telegramIdMessage },
  )
  .transform((value) => Number(value))
  .pipe(z.int({ error: telegramIdMessage }).positive({ error: telegramIdMessage }));

// ---------------------------------------------------------------------------------------------
// Money: exact decimals carried as strings, never floats

const decimalPattern = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Converts a decimal string to an integer count of minor units (`"350.5"`, scale 2 → `35050n`).
 * Throws a RangeError on malformed input or on non-zero digits beyond `scale`.
 */
export function toMinorUnits(value: string, scale: number): bigint {
  const match = decimalPattern.exec(value.trim());
  if (!match) throw new RangeError(`Not a decimal string: ${value}`);
  const [, sign, whole = '0', fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(scale))) throw new RangeError(`${value} has more than ${scale} decimals`);
  const units = BigInt(whole + fraction.slice(0, scale).padEnd(scale, '0'));
  return sign === '-' ? -units : units;
}

/** Formats minor units back to a canonical decimal string (`35050n`, scale 2 → `"350.50"`). */
export function fromMinorUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** Any canonical decimal string: optional minus, no leading zeros, optional fraction. */
export const DecimalString = z
  .string()
  .regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, { error: 'Ожидается десятичное число строкой, например "350.00"' })
  .meta({ id: 'DecimalString', description: 'Exact decimal as a string (never a float)', example: '350.00' });
export type DecimalString = z.infer<typeof DecimalString>;

/** Roubles: a decimal string with exactly 2 decimals (`"350.00"`). */
export const Money = z
  .string()
  .regex(/^-?(0|[1-9]\d*)\.\d{2}$/, { error: 'Сумма должна быть строкой с 2 знаками после точки, например "350.00"' })
  .meta({ id: 'Money', description: 'Roubles, exact decimal string with 2 decimals', example: '350.00' });
export type Money = z.infer<typeof Money>;

/** Dollars (model prices per 1M tokens, message costs, spend): 6 to 12 decimals (`"0.000150"`). */
export const UsdAmount = z
  .string()
  .regex(/^-?(0|[1-9]\d*)\.\d{6,12}$/, { error: 'Сумма в долларах должна быть строкой с 6–12 знаками после точки' })
  .meta({
    id: 'UsdAmount',
    description: 'US dollars, exact decimal string with 6 to 12 decimals',
    example: '0.000150',
  });
export type UsdAmount = z.infer<typeof UsdAmount>;

export interface DecimalInputOptions {
  /** Decimals kept; the output always has exactly this many. More non-zero decimals are refused. */
  scale: number;
  /** Inclusive bounds as decimal strings. */
  min?: string;
  max?: string;
  /** Russian messages; sensible defaults are used for the missing ones. */
  messages?: { invalid?: string; scale?: string; min?: string; max?: string };
}

/**
 * An exact decimal input: a JSON number or a decimal string, normalized to a canonical string
 * with exactly `scale` decimals. A number is read through its shortest round-trip form, so a
 * float artefact such as `0.1 + 0.2` (0.30000000000000004) is refused instead of rounded, and
 * exponent forms (`1e21`) are refused too.
 */
export function decimalInput(options: DecimalInputOptions) {
  const { scale } = options;
  const messages = {
    invalid: options.messages?.invalid ?? 'Ожидается число',
    scale: options.messages?.scale ?? `Не более ${scale} знаков после запятой`,
    min: options.messages?.min ?? `Значение должно быть не меньше ${options.min}`,
    max: options.messages?.max ?? `Значение должно быть не больше ${options.max}`,
  };
  const min = options.min === undefined ? undefined : toMinorUnits(options.min, scale);
  const max = options.max === undefined ? undefined : toMinorUnits(options.max, scale);
  return z.union([z.string(), z.number()], { error: messages.invalid }).transform((raw, ctx) => {
    const text = typeof raw === 'number' ? (Number.isFinite(raw) ? String(raw) : '') : raw.trim();
    const match = decimalPattern.exec(text);
    if (!match) {
      ctx.addIssue({ code: 'custom', message: messages.invalid });
      return z.NEVER;
    }
    if (/[1-9]/.test((match[3] ?? '').slice(scale))) {
      ctx.addIssue({ code: 'custom', message: messages.scale });
      return z.NEVER;
    }
    const units = toMinorUnits(text, scale);
    if (min !== undefined && units < min) {
      ctx.addIssue({ code: 'custom', message: messages.min });
      return z.NEVER;
    }
    if (max !== undefined && units > max) {
      ctx.addIssue({ code: 'custom', message: messages.max });
      return z.NEVER;
    }
    return fromMinorUnits(units, scale);
  });
}

/** Roubles as input: `350`, `"350"`, `350.5` → `"350.50"`; at most 2 decimals, 0 … 1 000 000 000. */
export const MoneyInput = decimalInput({ scale: 2, min: '0', max: '1000000000' }).meta({
  description: 'Roubles as a number or decimal string, at most 2 decimals; normalized to "350.00"',
  example: '350.00',
});
export type MoneyInput = z.input<typeof MoneyInput>;

const PRICE_MESSAGE = 'Цена должна быть числом не меньше 0';

/**
 * Dollar prices as input (per 1M tokens): at most 6 decimals, 0 … 1 000 000, normalized to 6 decimals; not a number
 * or below 0 is «Цена должна быть числом не меньше 0».
 */
export const UsdPriceInput = decimalInput({
  scale: 6,
  min: '0',
  max: '1000000',
  messages: { invalid: PRICE_MESSAGE, min: PRICE_MESSAGE },
}).meta({
  description: 'US dollars as a number or decimal string, at most 6 decimals; normalized to "2.500000"',
  example: '2.500000',
});
export type UsdPriceInput = z.input<typeof UsdPriceInput>;

// ---------------------------------------------------------------------------------------------
// Credits: integers

/**
 * Credits are whole numbers carried as JSON numbers. The balance may go below zero (a message is
 * charged in full after the model answered). JSON numbers are exact up to 2^53 − 1
 * (about 9·10^15), far above any reachable balance (1 000 000 000 ₽ × 400 credits = 4·10^11), so
 * strings are not needed; services store them as bigint and convert with Number.isSafeInteger checks.
 */
export const Credits = z.int().meta({ description: 'Credits, a safe integer (may be negative for a balance)' });
export type Credits = z.infer<typeof Credits>;

/** A non-negative credit amount (deposits, included credits, charges). */
export const CreditsAmount = z.int().min(0);
export type CreditsAmount = z.infer<typeof CreditsAmount>;

// ---------------------------------------------------------------------------------------------
// Texts in bodies

/** A required trimmed text: missing, blank and too long are refused with the given messages. */
export function requiredText(max: number, required: string, tooLong = `Не более ${max} символов`) {
  return z.string({ error: required }).trim().min(1, { error: required, abort: true }).max(max, { error: tooLong });
}

/** An optional trimmed text; missing, null and blank all become `null`. */
export function nullableText(max: number, tooLong = `Не более ${max} символов`) {
  return z
    .string({ error: 'Ожидается строка' })
    .trim()
    .max(max, { error: tooLong })
    .nullish()
    .transform((value) => (value ? value : null));
}

/** An optional link (absolute http(s) URL or a site path starting with "/"); blank becomes `null`. */
export function nullableLink(max = 2000) {
  return z
    .string({ error: 'Ожидается строка' })
    .trim()
    .max(max, { error: `Не более ${max} символов` })
    .regex(/^([hH][tT][tT][pP][sS]?:\/\/[^\s]+|\/[^\s]*)?$/, {
      error: 'Ссылка должна начинаться с http://, https:// или /',
    })
    .nullish()
    .transform((value) => (value ? value : null));
}

// ---------------------------------------------------------------------------------------------
// Pagination and list query parameters

/** Pagination block of list answers. */
export const Pagination = z
  .object({
    page: z.int().min(1),
    limit: z.int().min(1),
    total: z.int().min(0),
    pages: z.int().min(0).meta({ description: 'ceil(total / limit); 0 when the list is empty' }),
  })
  .meta({ id: 'Pagination' });
export type Pagination = z.infer<typeof Pagination>;

/** Builds the pagination block for `total` rows. */
export function paginationOf(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, pages: Math.ceil(total / limit) };
}

/** Query strings carry '' for empty inputs; treat them (and blank text) as absent. */
export function blankToUndefined(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

const pageMessage = 'Номер страницы должен быть целым числом не меньше 1';

/** `page`: 1-based, coerced from the query string, default 1. */
export const PageParam = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: pageMessage })
    .int({ error: pageMessage })
    .min(1, { error: pageMessage })
    .max(1_000_000, { error: pageMessage })
    .default(1),
);

/** `limit` (or `pageSize`): page size 1 … `max`, coerced from the query string. */
export function limitParam(defaultLimit: number, max = 100) {
  const message = `Размер страницы должен быть целым числом от 1 до ${max}`;
  return z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: message })
      .int({ error: message })
      .min(1, { error: message })
      .max(max, { error: message })
      .default(defaultLimit),
  );
}

/** An optional page size without a default (used where two names are accepted). */
export function optionalLimitParam(max = 100) {
  const message = `Размер страницы должен быть целым числом от 1 до ${max}`;
  return z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: message })
      .int({ error: message })
      .min(1, { error: message })
      .max(max, { error: message })
      .optional(),
  );
}

/** A normalized sort direction. */
export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;

const sortOrderMessage = 'Порядок сортировки: 1 (по возрастанию) или -1 (по убыванию)';

/**
 * `sortOrder` as the spec's tables send it: `1` means ascending, `-1` (or `0`) descending;
 * `asc`/`desc` are accepted too. Normalized to `'asc' | 'desc'`.
 */
export const SortOrderParam = z
  .enum(['1', '-1', '0', 'asc', 'desc'], { error: sortOrderMessage })
  .transform((value): SortDirection => (value === '1' || value === 'asc' ? 'asc' : 'desc'));

/** An optional text filter from the query string; blank becomes absent, trimmed. */
export function queryText(max = 200) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: 'Ожидается строка' })
      .max(max, { error: `Не более ${max} символов` })
      .optional(),
  );
}

/** An optional id filter from the query string (`userId=42`); blank becomes absent. */
export const QueryId = z.preprocess(blankToUndefined, IdParam.optional());

/** Generic list query (page, limit, free sortField, sortOrder) for lists without a fixed column set. */
export const ListQuery = z.object({
  page: PageParam,
  limit: limitParam(10),
  sortField: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, { error: 'Недопустимое поле сортировки' })
      .optional(),
  ),
  sortOrder: z.preprocess(blankToUndefined, SortOrderParam.optional()),
});
export type ListQuery = z.infer<typeof ListQuery>;

/**
 * List query of a table whose sortable columns are known: `sortField` must be one of them
 * (anything else is a 400, so no column name reaches SQL unchecked) and defaults to the spec's
 * default sort; `sortOrder` defaults to the default direction.
 */
export function listQuery<const F extends readonly [string, ...string[]]>(options: {
  sortFields: F;
  defaultSort: { field: F[number]; order: SortDirection };
  defaultLimit?: number;
  maxLimit?: number;
}) {
  const sortField = z.enum(options.sortFields, { error: 'Недопустимое поле сортировки' });
  return z.object({
    page: PageParam,
    limit: limitParam(options.defaultLimit ?? 10, options.maxLimit),
    sortField: z.preprocess(
      blankToUndefined,
      sortField.default(options.defaultSort.field as z.output<typeof sortField>),
    ),
    sortOrder: z.preprocess(blankToUndefined, SortOrderParam.default(options.defaultSort.order)),
  });
}

// ---------------------------------------------------------------------------------------------
// Client-side forms

/** A request body as a client writes it (the schema's input: fields with defaults may be left out). */
export type RequestBody<S extends z.ZodType> = z.input<S>;

/** What a form holds while it is filled in: each field of the schema's input, a checkbox as a boolean. */
export type FormValues<S extends z.ZodType> = {
  [K in keyof z.input<S>]-?: NonNullable<z.input<S>[K]> extends boolean ? boolean : string;
};

/** The first message per field of what `schema` finds wrong with a form's values, or the body made of them (none: `{}`). */
export function fieldErrors<S extends z.ZodType>(
  schema: S,
  values: FormValues<S> | RequestBody<S>,
): Partial<Record<keyof FormValues<S> & string, string>> {
  const result = schema.safeParse(values);
  const errors: Partial<Record<string, string>> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/** The fields a person can be named by; any may be missing. `email` is the site account's own address. */
export interface PersonNames {
  username?: string | null;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  telegram_id?: number | string | null;
}

/**
 * How the product names a person everywhere — tables, dialogs, tiles, exports: the Telegram username,
 * else the site account's e-mail, else the first and last name, else the Telegram id; '' when none is
 * known. The e-mail comes before the names: a Telegram name need not be a real one (the sandbox calls
 * everyone «Гость»), and a linked customer is known by the address they signed up with.
 */
export function personName(person: PersonNames): string {
  if (person.username) return `@${person.username}`;
  if (person.email) return person.email;
  const name = [person.first_name, person.last_name].filter(Boolean).join(' ');
  if (name) return name;
  return person.telegram_id === null || person.telegram_id === undefined ? '' : `Telegram ID ${person.telegram_id}`;
}
