import { useEffect } from 'react';

import { refreshSession } from '@/lib/session/session';

/** How long after the account was confirmed it waits for the welcome grant. */
const FRESH_CONFIRMATION_MS = 60_000;
/** Once a second at first, when the grant usually arrives, then every few seconds (a busy billing takes longer). */
const quickReads = 10;
const readEveryMs = (reads: number) => (reads < quickReads ? 1000 : 5000);

export interface WelcomeGrantWait {
  /** The welcome credits the profile shows now (0: none yet). */
  shown: number;
  /** The account is confirmed: the grant is on its way. */
  confirmed: boolean;
  /** The grant being given now (welcome_credits); undefined while that is unknown (not read, or the read failed). */
  offered: number | undefined;
  /** When the account was confirmed (ms since the epoch; a bot-made or linked account at its creation). */
  since: number;
}

/**
 * Billing gives the welcome grant moments after the account is confirmed (docs/product.md, Welcome
 * credits), usually after the next profile read: a confirmed account that shows no grant yet while one
 * is, or may be, given re-reads its profile until it does, for a minute after the confirmation. An
 * unconfirmed account waits for nothing, nor does one when no grant is given (welcome_credits 0).
 */
export function useWelcomeGrantArrival({ shown, confirmed, offered, since }: WelcomeGrantWait): void {
  const waiting = confirmed && offered !== 0 && shown === 0;

  useEffect(() => {
    let reads = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      if (Date.now() - since >= FRESH_CONFIRMATION_MS) return;
      timer = setTimeout(() => {
        reads += 1;
        // A read that fails (a busy service) does not end the wait: the next one is tried as planned.
        refreshSession().then(next, next);
      }, readEveryMs(reads));
    };
    if (waiting) next();
    return () => clearTimeout(timer);
  }, [waiting, since]);
}
