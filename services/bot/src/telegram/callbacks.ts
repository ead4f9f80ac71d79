import type { Composer, Context, Filter } from 'grammy';

/**
 * Every kind of button the bot sends, with its callback data: fixed, or a prefix and what it carries
 * (a whole number, or on/off). Data is made and read here, from this one table and nowhere else, so a
 * button and the handler of its press can never disagree on a string.
 */
export const CALLBACK_TABLE = {
  models: { data: 'menu:model' },
  balance: { data: 'menu:balance' },
  buy: { data: 'menu:buy' },
  imageUsage: { data: 'menu:image' },
  link: { data: 'menu:link' },
  openWeb: { data: 'menu:web' },
  modes: { data: 'menu:mode' },
  settings: { data: 'menu:settings' },
  openChat: { data: 'menu:chat' },
  editInstructions: { data: 'instructions:edit' },
  deleteInstructions: { data: 'instructions:delete' },
  cancelEmail: { data: 'pay:email:cancel' },
  chooseModel: { data: 'model', number: 'id' },
  chooseMode: { data: 'mode', number: 'id' },
  chooseTopUp: { data: 'pay:topup', number: 'roubles' },
  chooseTariff: { data: 'pay:tariff', number: 'id' },
  topUp: { data: 'buy:topup', number: 'roubles' },
  buyTariff: { data: 'buy:tariff', number: 'id' },
  starsTopUp: { data: 'stars:topup', number: 'roubles' },
  starsTariff: { data: 'stars:tariff', number: 'id' },
  voiceReplies: { data: 'voice', flag: 'on' },
  news: { data: 'news', flag: 'on' },
  cancelSubscription: { data: 'sub:cancel', number: 'id' },
  resumeSubscription: { data: 'sub:resume', number: 'id' },
  starsSubscription: { data: 'stars:sub', number: 'id' },
  renewTariff: { data: 'renew:ask', number: 'id' },
  renewAgree: { data: 'renew:agree', number: 'id' },
} as const satisfies Record<string, { data: string; number?: string; flag?: string }>;

type Kinds = typeof CALLBACK_TABLE;
export type CallbackKind = keyof Kinds;
export const CALLBACK_KINDS = Object.keys(CALLBACK_TABLE) as CallbackKind[];

/** What a button of this kind carries: `{ id: number }`, `{ on: boolean }`, or nothing. */
export type CallbackArgs<K extends CallbackKind> = Kinds[K] extends { number: infer N extends string }
  ? Record<N, number>
  : Kinds[K] extends { flag: infer F extends string }
    ? Record<F, boolean>
    : Record<never, never>;

/** What a pressed button asks for. */
export type Callback = { [K in CallbackKind]: { kind: K } & CallbackArgs<K> }[CallbackKind];

type Spec = { data: string; number?: string; flag?: string };
const specOf = (kind: CallbackKind): Spec => CALLBACK_TABLE[kind];
const WHOLE_NUMBER = /^\d{1,15}$/;

export function encodeCallback(callback: Callback): string {
  const spec = specOf(callback.kind);
  const args = callback as unknown as Record<string, number | boolean>;
  if (spec.number) return `${spec.data}:${args[spec.number]}`;
  if (spec.flag) return `${spec.data}:${args[spec.flag] ? 'on' : 'off'}`;
  return spec.data;
}

/** The button's request, or null for data no button of ours carries. */
export function parseCallback(data: string): Callback | null {
  for (const kind of CALLBACK_KINDS) {
    const spec = specOf(kind);
    if (!spec.number && !spec.flag) {
      if (data === spec.data) return { kind } as Callback;
      continue;
    }
    if (!data.startsWith(`${spec.data}:`)) continue;
    const value = data.slice(spec.data.length + 1);
    if (spec.number && WHOLE_NUMBER.test(value)) return { kind, [spec.number]: Number(value) } as Callback;
    if (spec.flag && (value === 'on' || value === 'off')) return { kind, [spec.flag]: value === 'on' } as Callback;
  }
  return null;
}

/** The callback data of a button: `callbackData('chooseModel', { id: 5 })`, `callbackData('buy')`. */
export function callbackData<K extends CallbackKind>(
  kind: K,
  ...args: keyof CallbackArgs<K> extends never ? [] : [CallbackArgs<K>]
): string {
  return encodeCallback({ kind, ...args[0] } as Callback);
}

type Pressed<K extends Callback['kind']> = Extract<Callback, { kind: K }>;

/** Registers the handler of one kind of button press on a feature; the data is parsed once, here. */
export function onCallback<C extends Context, K extends Callback['kind']>(
  feature: Composer<C>,
  kind: K,
  handler: (ctx: Filter<C, 'callback_query:data'>, pressed: Pressed<K>) => Promise<unknown>,
): void {
  feature.on('callback_query:data', async (ctx, next) => {
    const pressed = parseCallback(ctx.callbackQuery.data);
    if (pressed?.kind !== kind) return next();
    await handler(ctx, pressed as Pressed<K>);
  });
}
