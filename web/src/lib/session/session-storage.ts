import type { SessionUser } from './types';

/** localStorage keys of the browser session (docs/product.md, Data): exactly `token` and `user`. */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be disabled (privacy mode, sandboxed frames): behave as signed out.
    return null;
  }
}

export function readStoredToken(): string | null {
  const token = storage()?.getItem(TOKEN_KEY);
  return token ? token : null;
}

export function readStoredUser(): SessionUser | null {
  const raw = storage()?.getItem(USER_KEY);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' ? (parsed as SessionUser) : null;
  } catch {
    return null;
  }
}

export function writeStoredToken(token: string | null): void {
  const store = storage();
  if (!store) return;
  if (token) store.setItem(TOKEN_KEY, token);
  else store.removeItem(TOKEN_KEY);
}

export function writeStoredUser(user: SessionUser | null): void {
  const store = storage();
  if (!store) return;
  if (user) store.setItem(USER_KEY, JSON.stringify(user));
  else store.removeItem(USER_KEY);
}
