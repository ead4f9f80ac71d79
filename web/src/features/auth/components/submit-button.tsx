import type { ReactNode } from 'react';

import { BusyButton } from '@/components/ui/busy-button';

/** The form's full-width submit button, with a spinner while its request runs. */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <BusyButton type="submit" variant="primary" size="lg" className="w-100" busy={busy}>
      {children}
    </BusyButton>
  );
}
