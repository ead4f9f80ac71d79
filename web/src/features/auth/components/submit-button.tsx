import type { ReactNode } from 'react';

import { BusyButton } from '@/components/ui/busy-button';
import { useSession } from '@/lib/session/use-session';

/** The form's full-width submit button, with a spinner while the session's request runs. */
export function SubmitButton({ children }: { children: ReactNode }) {
  const { loading } = useSession();
  return (
    <BusyButton type="submit" variant="primary" size="lg" className="w-100" busy={loading}>
      {children}
    </BusyButton>
  );
}
