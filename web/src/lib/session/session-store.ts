import type { ChangePasswordRequest, LoginRequest, PasswordResetConfirmRequest, RegisterRequest } from '@gpt/contracts';

import { ApiError, errorMessage } from '../api-client';
import { queryClient } from '../query-client';
import { getProfile, postChangePassword, postLogin, postPasswordResetConfirm, postRegister } from './auth-api';
import {
  readStoredToken,
  readStoredUser,
  TOKEN_KEY,
  USER_KEY,
  writeStoredToken,
  writeStoredUser,
} from './session-storage';
import type { SessionState, SessionUser } from './types';

/** docs/product.md, Errors default messages, used when the server gives no text. */
export const sessionMessages = {
  login: 'Ошибка входа',
  register: 'Ошибка регистрации',
  profile: 'Ошибка при получении данных пользователя',
  noToken: 'Токен не найден',
  changePassword: 'Ошибка при смене пароля',
  resetPassword: 'Не удалось сменить пароль',
  /** A 401 on the profile when the server sends no text (its own text is the same). */
  ended: 'Сессия завершена, войдите снова',
} as const;

type Listener = () => void;

/**
 * The browser session (docs/product.md, Data and States): token and user mirrored in localStorage, a loading flag
 * and the last error. A tiny external store so the API client, guards and components share it.
 */
export function createSessionStore() {
  let state: SessionState = {
    token: readStoredToken(),
    user: readStoredUser(),
    loading: false,
    error: null,
    endedBecause: null,
  };
  const listeners = new Set<Listener>();

  function set(patch: Partial<SessionState>): void {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  }

  function saveUser(user: SessionUser): void {
    writeStoredUser(user);
    set({ user });
  }

  function logout(): void {
    writeStoredToken(null);
    writeStoredUser(null);
    set({ token: null, user: null, loading: false, endedBecause: null });
    // Nothing cached for the previous user may leak into the next session.
    queryClient.clear();
  }

  /** Signs out a session the server no longer accepts, keeping the reason for the login page. */
  function endSession(reason: string): void {
    logout();
    set({ endedBecause: reason });
  }

  /** Runs one auth action: loading on, error cleared at start, message stored on failure. */
  async function run<T>(fallback: string, action: () => Promise<T>): Promise<T> {
    set({ loading: true, error: null });
    try {
      return await action();
    } catch (err) {
      set({ error: errorMessage(err, fallback) });
      throw err;
    } finally {
      set({ loading: false });
    }
  }

  async function fetchProfile(): Promise<SessionUser> {
    if (!readStoredToken()) {
      set({ error: sessionMessages.noToken });
      logout();
      throw new Error(sessionMessages.noToken);
    }
    try {
      return await run(sessionMessages.profile, async () => {
        const user = await getProfile();
        saveUser(user);
        return user;
      });
    } catch (err) {
      // Deviation from docs/product.md, States (any profile failure only recorded): a revoked token or a deleted
      // account would otherwise go on showing stale data, so a 401 ends the session.
      if (err instanceof ApiError && err.status === 401) endSession(errorMessage(err, sessionMessages.ended));
      throw err;
    }
  }

  async function signIn(fallback: string, call: () => Promise<{ token: string; user: SessionUser }>) {
    const response = await run(fallback, async () => {
      const result = await call();
      queryClient.clear();
      writeStoredToken(result.token);
      writeStoredUser(result.user);
      set({ token: result.token, user: result.user, endedBecause: null });
      return result;
    });
    // After login or registration the profile is fetched; its failure does not undo the sign-in.
    await fetchProfile().catch((err: unknown) => console.error('Profile load after sign-in failed', err));
    return response;
  }

  return {
    getState: (): SessionState => state,
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    login: (input: LoginRequest) => signIn(sessionMessages.login, () => postLogin(input)),
    register: (input: RegisterRequest) => signIn(sessionMessages.register, () => postRegister(input)),
    /** A new password by a recovery link; the answer signs in (every older session was ended). */
    resetPassword: (input: PasswordResetConfirmRequest) =>
      signIn(sessionMessages.resetPassword, () => postPasswordResetConfirm(input)),
    logout,
    fetchProfile,

    async changePassword(input: ChangePasswordRequest): Promise<void> {
      if (!readStoredToken()) {
        set({ error: sessionMessages.noToken });
        logout();
        throw new Error(sessionMessages.noToken);
      }
      await run(sessionMessages.changePassword, async () => {
        const { token } = await postChangePassword(input);
        // The change revoked every older token, this tab's included: continue with the new one.
        writeStoredToken(token);
        set({ token });
      });
    },

    /** Follows sign-in and sign-out done in another tab. */
    syncFromStorage(key: string | null): void {
      if (key !== null && key !== TOKEN_KEY && key !== USER_KEY) return;
      set({ token: readStoredToken(), user: readStoredUser() });
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

export const sessionStore = createSessionStore();
