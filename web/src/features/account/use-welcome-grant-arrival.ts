import { useEffect } from 'react';

import type { SessionUser } from '@/lib/session/types';
import { refreshSession } from '@/lib/session/session';

/** How long after sign-up the account waits for the welcome grant, reading the profile once a second. */
const FRESH_ACCOUNT_MS = 60_000;
const MAX_READS = 10;

/**
 * Billing gives the welcome grant moments after sign-up, usually after the first profile read: a
 * brand-new account that shows no grant yet while one is being given (`offered` credits) re-reads
 * its profile a few times until it does.
 */
export function useWelcomeGrantArrival(user: SessionUser, offered: number): void {
  const waiting = offered > 0 && Number(user.welcome_credits ?? 0) === 0;
  const createdAt = user.created_at ? Date.parse(user.created_at) : Number.NaN;

  useEffect(() => {
    if (!waiting || !(Date.now() - createdAt < FRESH_ACCOUNT_MS)) return;
    let reads = 0;
    const timer = setInterval(() => {
      reads += 1;
      if (reads > MAX_READS) return clearInterval(timer);
      refreshSession().catch(() => clearInterval(timer));
    }, 1000);
    return () => clearInterval(timer);
  }, [waiting, createdAt]);
}
