import { useState } from 'react';

import { ApiError } from './api-client';

/**
 * The `Idempotency-Key` of an admin action (docs/money.md, Admin actions: exactly once): made when its form
 * or confirmation opens (`open` turns true) and the same for every try of that submit, so pressing again
 * after a timeout or «Сервис временно недоступен» never applies the action twice.
 */
export function useActionKey(open: boolean): string {
  const [state, setState] = useState(() => ({ open, key: crypto.randomUUID() }));
  if (open !== state.open) {
    const next = { open, key: open ? crypto.randomUUID() : state.key };
    setState(next);
    return next.key;
  }
  return state.key;
}

/** The header that carries an action's key. */
export const actionKeyHeaders = (key: string) => ({ 'Idempotency-Key': key });

/**
 * A keyed admin action is tried again by itself, with the same key, when its answer was lost: the
 * network failed (status 0) or the server answered 503. Twice at most, a second apart.
 */
export const keyedActionRetry = {
  retry: (failures: number, err: Error) =>
    failures < 2 && err instanceof ApiError && (err.status === 0 || err.status === 503),
  retryDelay: 1000,
};
