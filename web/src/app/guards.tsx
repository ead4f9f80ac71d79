import { Navigate, Outlet } from 'react-router-dom';

import { paths } from '@/config/paths';
import { isAdmin } from '@/lib/session/types';
import { useSession } from '@/lib/session/session';

/** Login-required routes: without a stored token go to /login (docs/product.md, Screens). */
export function RequireAuth() {
  const { token } = useSession();
  return token ? <Outlet /> : <Navigate to={paths.login} replace />;
}

/** Admin routes: without a token go to /login; with a non-admin stored user go to /dashboard. */
export function RequireAdmin() {
  const { token, user } = useSession();
  if (!token) return <Navigate to={paths.login} replace />;
  if (!isAdmin(user)) return <Navigate to={paths.dashboard} replace />;
  return <Outlet />;
}
