import { followStorage, refreshSession } from './session';
import { readStoredToken } from './session-storage';

/**
 * App start (docs/product.md, States): a stored token triggers a profile load whose failure is only logged.
 * Also follows sign-in and sign-out made in other tabs.
 */
export function startSession(): void {
  if (readStoredToken()) {
    refreshSession().catch((err: unknown) => console.error('Profile load at start failed', err));
  }
  window.addEventListener('storage', (event) => followStorage(event.key));
}
