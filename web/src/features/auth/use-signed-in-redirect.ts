import { useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';

/** Where a signed-in form goes: /link/{token} when a link token came along, else /dashboard. */
export function useSignedInRedirect(linkToken: string | null) {
  const navigate = useNavigate();
  return () => navigate(linkToken ? paths.link(linkToken) : paths.dashboard, { replace: true });
}
