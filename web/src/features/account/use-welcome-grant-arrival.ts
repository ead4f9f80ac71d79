import { useEffect } from 'react';

import type { SessionUser } from '@/lib/session/types';
import { refreshSession } from '@/lib/session/session';

/** How long after the account was confirmed it waits for the welcome grant. */
const FRESH_CONFIRMATION_MS = 60_000;
/** Once a second at first, when the grant usually arrives, then every few seconds (a busy billing takes longer). */
const quickReads = 10;
const readEveryMs = (reads: number) => (reads < quickReads ? 1000 : 5000);

/**
 * Billing gives the welcome grant moments after the account is confirmed (docs/product.md, Welcome
 * credits), usually after the next profile read: an account confirmed since `confirmedAt` (a time in
 * ms; a bot-made or linked account at its creation) that shows no grant yet while one is being given
 * (`offered` credits) re-reads its profile until it does, for a minute after the confirmation. An unconfirmed account waits for nothing.
 */
export function useWelcomeGrantArrival(user: SessionUser, offered: number, confirmedAt: number): void {
  const waiting = offered > 0 && user.email_confirmed !== false && Number(user.welcome_credits ?? 0) === 0;

  useEffect(() => {
    let reads = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      if (Date.now() - confirmedAt >= FRESH_CONFIRMATION_MS) return;
      timer = setTimeout(() => {
        reads += 1;
        // A read that fails (a busy service) does not end the wait: the next one is tried as planned.
        refreshSession().then(next, next);
      }, readEveryMs(reads));
    };
    if (waiting) next();
    return () => clearTimeout(timer);
  }, [waiting, confirmedAt]);
}
