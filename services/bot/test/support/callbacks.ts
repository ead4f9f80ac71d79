import { CALLBACK_KINDS, CALLBACK_TABLE, type Callback } from '../../src/telegram/callbacks';

/** One request of every kind of button the bot has (both values of an on/off one), from the callbacks table. */
export function everyCallback(): Callback[] {
  return CALLBACK_KINDS.flatMap((kind) => {
    const spec = CALLBACK_TABLE[kind] as { number?: string; flag?: string };
    if (spec.number) return [{ kind, [spec.number]: 7 } as Callback];
    if (spec.flag) return [true, false].map((on) => ({ kind, [spec.flag!]: on }) as Callback);
    return [{ kind } as Callback];
  });
}
