import type {
  AuthResponse,
  ChangePasswordRequest,
  LoginRequest,
  PasswordResetConfirmRequest,
  RegisterRequest,
  TelegramWidgetLogin,
} from '@gpt/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';

import { ApiError, errorMessage } from '../api-client';
import { queryClient } from '../query-client';
import {
  getProfile,
  postChangePassword,
  postLogin,
  postPasswordResetConfirm,
  postRegister,
  postTelegramSignInLink,
  postTelegramWidget,
} from './auth-api';
import {
  readStoredToken,
  readStoredUser,
  TOKEN_KEY,
  USER_KEY,
  writeStoredToken,
  writeStoredUser,
} from './session-storage';
import type { SessionUser } from './types';

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

/**
 * The browser session (docs/product.md, Data and States), the React Query entry `['session']`: the token and the
 * user, mirrored in localStorage (`token`, `user`), and why the server ended the last session (a 401 on the
 * profile), shown on /login until the next sign-in.
 */
export interface Session {
  token: string | null;
  user: SessionUser | null;
  endedBecause: string | null;
}

export const sessionKey = ['session'] as const;

const storedSession = (endedBecause: string | null = null): Session => ({
  token: readStoredToken(),
  user: readStoredUser(),
  endedBecause,
});

/** The session becomes `next`; nothing cached for the previous user may leak into it. */
function replaceSession(next: Session): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
  queryClient.setQueryData(sessionQuery.queryKey, next);
}

function signOut(endedBecause: string | null = null): Session {
  writeStoredToken(null);
  writeStoredUser(null);
  const next = { token: null, user: null, endedBecause };
  replaceSession(next);
  return next;
}

/**
 * Reads the profile of the stored token. Deviation from docs/product.md, States (any profile failure only
 * recorded): a revoked token or a deleted account would otherwise go on showing stale data, so a 401 ends the
 * session; any other failure leaves it as it was, with the query's error.
 */
async function loadSession(): Promise<Session> {
  const token = readStoredToken();
  if (!token) return signOut();
  try {
    const user = await getProfile();
    writeStoredUser(user);
    return { token, user, endedBecause: null };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return signOut(errorMessage(err, sessionMessages.ended));
    throw err;
  }
}

/** Starts from what localStorage holds and is read again only when asked (`refreshSession`). */
export const sessionQuery = queryOptions({
  queryKey: sessionKey,
  queryFn: loadSession,
  initialData: () => storedSession(),
  staleTime: Infinity,
  gcTime: Infinity,
  retry: false,
});

/**
 * Reads the profile again (a new balance, a linked Telegram account…); a failure rejects and is kept. A read
 * already under way (the one at app start) may have left before the change the caller wants to see, so the new
 * read follows it rather than sharing its answer.
 */
export async function refreshSession(): Promise<Session> {
  const read = () => queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 });
  if (queryClient.isFetching({ queryKey: sessionKey }) > 0) await read().catch(() => undefined);
  return read();
}

/** The current session and, when the last profile read failed, its message. */
export function useSession(): Session & { error: string | null } {
  const { data, error } = useQuery(sessionQuery);
  return { ...data, error: error ? errorMessage(error, sessionMessages.profile) : null };
}

/** Follows sign-in and sign-out done in another tab. */
export function followStorage(key: string | null): void {
  if (key !== null && key !== TOKEN_KEY && key !== USER_KEY) return;
  queryClient.setQueryData(sessionQuery.queryKey, (current) => storedSession(current?.endedBecause ?? null));
}

/** Stores the answer's token and user; the profile is read next, its failure does not undo the sign-in. */
async function signIn<A extends AuthResponse>(answer: Promise<A>): Promise<A> {
  const result = await answer;
  writeStoredToken(result.token);
  writeStoredUser(result.user);
  replaceSession({ token: result.token, user: result.user, endedBecause: null });
  await refreshSession().catch((err: unknown) => console.error('Profile load after sign-in failed', err));
  return result;
}

export const useLogin = () => useMutation({ mutationFn: (input: LoginRequest) => signIn(postLogin(input)) });

export const useRegister = () => useMutation({ mutationFn: (input: RegisterRequest) => signIn(postRegister(input)) });

/** A new password by a recovery link; the answer signs in (every older session was ended). */
export const useResetPassword = () =>
  useMutation({ mutationFn: (input: PasswordResetConfirmRequest) => signIn(postPasswordResetConfirm(input)) });

/** Signs in with the bot's single-use link («🌐 Открыть в браузере», /web). */
export const useTelegramLinkSignIn = () =>
  useMutation({ mutationFn: (token: string) => signIn(postTelegramSignInLink(token)) });

/** Signs in with what the Telegram Login Widget handed the page (checked by the server with the bot's token). */
export const useTelegramWidgetSignIn = () =>
  useMutation({ mutationFn: (login: TelegramWidgetLogin) => signIn(postTelegramWidget(login)) });

export const useLogout = () => useMutation({ mutationFn: async () => signOut() });

/** The change revoked every older token, this tab's included: the session continues with the new one. */
export const useChangePassword = () =>
  useMutation({
    mutationFn: async (input: ChangePasswordRequest) => {
      if (!readStoredToken()) {
        signOut();
        throw new Error(sessionMessages.noToken);
      }
      const { token } = await postChangePassword(input);
      writeStoredToken(token);
      queryClient.setQueryData(sessionQuery.queryKey, (current) => ({ ...(current ?? storedSession()), token }));
    },
  });
