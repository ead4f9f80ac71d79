import type { Composer, Context, Filter } from 'grammy';

/**
 * Every button's callback data is made and read here, and nowhere else, so a button and the
 * handler of its press can never disagree on a string.
 */
const MENU = {
  models: 'menu:model',
  balance: 'menu:balance',
  buy: 'menu:buy',
  imageUsage: 'menu:image',
  link: 'menu:link',
  modes: 'menu:mode',
  settings: 'menu:settings',
  editInstructions: 'instructions:edit',
  deleteInstructions: 'instructions:delete',
  cancelEmail: 'pay:email:cancel',
} as const;
type MenuScreen = keyof typeof MENU;
export const MENU_SCREENS = Object.keys(MENU) as MenuScreen[];

/** What a pressed button asks for. */
export type Callback =
  | { kind: MenuScreen }
  | { kind: 'chooseModel'; id: number }
  | { kind: 'chooseMode'; id: number }
  | { kind: 'voiceReplies'; on: boolean }
  | { kind: 'chooseTopUp'; roubles: number }
  | { kind: 'chooseTariff'; id: number }
  | { kind: 'topUp'; roubles: number }
  | { kind: 'buyTariff'; id: number }
  | { kind: 'starsTopUp'; roubles: number }
  | { kind: 'starsTariff'; id: number };

export function encodeCallback(callback: Callback): string {
  switch (callback.kind) {
    case 'chooseModel':
      return `model:${callback.id}`;
    case 'chooseMode':
      return `mode:${callback.id}`;
    case 'voiceReplies':
      return `voice:${callback.on ? 'on' : 'off'}`;
    case 'chooseTopUp':
      return `pay:topup:${callback.roubles}`;
    case 'chooseTariff':
      return `pay:tariff:${callback.id}`;
    case 'topUp':
      return `buy:topup:${callback.roubles}`;
    case 'buyTariff':
      return `buy:tariff:${callback.id}`;
    case 'starsTopUp':
      return `stars:topup:${callback.roubles}`;
    case 'starsTariff':
      return `stars:tariff:${callback.id}`;
    default:
      return MENU[callback.kind];
  }
}

/** The button's request, or null for data no button of ours carries. */
export function parseCallback(data: string): Callback | null {
  const screen = MENU_SCREENS.find((key) => MENU[key] === data);
  if (screen) return { kind: screen };
  if (data === 'voice:on' || data === 'voice:off') return { kind: 'voiceReplies', on: data === 'voice:on' };
  const [, prefix, digits] =
    /^(model|mode|pay:topup|pay:tariff|buy:topup|buy:tariff|stars:topup|stars:tariff):(\d{1,15})$/.exec(data) ?? [];
  const n = Number(digits);
  if (prefix === 'model') return { kind: 'chooseModel', id: n };
  if (prefix === 'mode') return { kind: 'chooseMode', id: n };
  if (prefix === 'pay:topup') return { kind: 'chooseTopUp', roubles: n };
  if (prefix === 'pay:tariff') return { kind: 'chooseTariff', id: n };
  if (prefix === 'buy:topup') return { kind: 'topUp', roubles: n };
  if (prefix === 'buy:tariff') return { kind: 'buyTariff', id: n };
  if (prefix === 'stars:topup') return { kind: 'starsTopUp', roubles: n };
  if (prefix === 'stars:tariff') return { kind: 'starsTariff', id: n };
  return null;
}

/** Callback data of the bot's buttons. */
export const callbacks = {
  menu: (screen: MenuScreen) => encodeCallback({ kind: screen }),
  chooseModel: (id: number) => encodeCallback({ kind: 'chooseModel', id }),
  chooseMode: (id: number) => encodeCallback({ kind: 'chooseMode', id }),
  voiceReplies: (on: boolean) => encodeCallback({ kind: 'voiceReplies', on }),
  chooseTopUp: (roubles: number) => encodeCallback({ kind: 'chooseTopUp', roubles }),
  chooseTariff: (id: number) => encodeCallback({ kind: 'chooseTariff', id }),
  topUp: (roubles: number) => encodeCallback({ kind: 'topUp', roubles }),
  buyTariff: (id: number) => encodeCallback({ kind: 'buyTariff', id }),
  starsTopUp: (roubles: number) => encodeCallback({ kind: 'starsTopUp', roubles }),
  starsTariff: (id: number) => encodeCallback({ kind: 'starsTariff', id }),
};

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
