import { useEffect } from 'react';

import type { SessionUser } from '@/lib/session/types';
import { useSessionActions } from '@/lib/session/use-session';

/** How long after the account was confirmed it waits for the welcome grant, reading the profile once a second. */
const FRESH_CONFIRMATION_MS = 60_000;
const MAX_READS = 10;

/**
 * Billing gives the welcome grant moments after the account is confirmed (docs/product.md, Welcome
 * credits), usually after the next profile read: an account confirmed since `confirmedAt` (a time in
 * ms; a bot-made or linked account at its creation) that shows no grant yet while one is being given
 * (`offered` credits) re-reads its profile a few times until it does. An unconfirmed account waits for nothing.
 */
export function useWelcomeGrantArrival(user: SessionUser, offered: number, confirmedAt: number): void {
  const { fetchProfile } = useSessionActions();
  const waiting = offered > 0 && user.email_confirmed !== false && Number(user.welcome_credits ?? 0) === 0;

  useEffect(() => {
    if (!waiting || !(Date.now() - confirmedAt < FRESH_CONFIRMATION_MS)) return;
    let reads = 0;
    const timer = setInterval(() => {
      reads += 1;
      if (reads > MAX_READS) return clearInterval(timer);
      fetchProfile().catch(() => clearInterval(timer));
    }, 1000);
    return () => clearInterval(timer);
  }, [waiting, confirmedAt, fetchProfile]);
}
