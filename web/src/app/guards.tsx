import { Navigate, Outlet, useLocation } from 'react-router-dom';

import { paths } from '@/config/paths';
import { isAdmin } from '@/lib/session/types';
import { useSession } from '@/lib/session/session';

/**
 * Login-required routes: without a stored token go to /login (docs/product.md, Screens), which comes back here
 * once signed in (`state.from`).
 */
export function RequireAuth() {
  const { token } = useSession();
  const location = useLocation();
  return token ? (
    <Outlet />
  ) : (
    <Navigate to={paths.login} replace state={{ from: `${location.pathname}${location.search}` }} />
  );
}

/** Admin routes: without a token go to /login; with a non-admin stored user go to /dashboard. */
export function RequireAdmin() {
  const { token, user } = useSession();
  if (!token) return <Navigate to={paths.login} replace />;
  if (!isAdmin(user)) return <Navigate to={paths.dashboard} replace />;
  return <Outlet />;
}
