import { useLocation, useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';

/** The page a login-required route sent the visitor from (`RequireAuth`'s `state.from`), if it is one of ours. */
function cameFrom(state: unknown): string | null {
  const from = state && typeof state === 'object' ? (state as { from?: unknown }).from : null;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : null;
}

/**
 * Where a signed-in form goes: /link/{token} when a link token came along, else back to the page that asked
 * for a sign-in, else /dashboard.
 */
export function useSignedInRedirect(linkToken: string | null) {
  const navigate = useNavigate();
  const { state } = useLocation();
  return () => navigate(linkToken ? paths.link(linkToken) : (cameFrom(state) ?? paths.dashboard), { replace: true });
}
