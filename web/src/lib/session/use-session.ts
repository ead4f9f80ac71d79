import { useSyncExternalStore } from 'react';

import { sessionStore } from './session-store';
import type { SessionState } from './types';

/** The current session state; re-renders on every change. */
export function useSession(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.getState, sessionStore.getState);
}

/** The session actions (stable references). */
export function useSessionActions() {
  return sessionActions;
}

const sessionActions = {
  login: sessionStore.login,
  register: sessionStore.register,
  resetPassword: sessionStore.resetPassword,
  logout: sessionStore.logout,
  fetchProfile: sessionStore.fetchProfile,
  changePassword: sessionStore.changePassword,
};
