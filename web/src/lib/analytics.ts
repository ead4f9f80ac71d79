/**
 * Yandex.Metrika counter, added on demand. The page views of a single-page app are sent as
 * `hit`s by the router (see app/analytics-tag.tsx); admin pages never load or report anything.
 */

type YmFunction = ((...args: unknown[]) => void) & { a?: unknown[][]; l?: number };

declare global {
  interface Window {
    ym?: YmFunction;
  }
}

export const ANALYTICS_SCRIPT_ID = 'analytics-tag';
const TAG_URL = 'https://mc.yandex.ru/metrika/tag.js';

let installedId: string | null = null;

/** Adds the counter script once and initialises it (no automatic hits: the router sends them). */
export function installAnalytics(counterId: string): void {
  if (installedId === counterId) return;
  installedId = counterId;

  // The standard queueing stub: calls made before tag.js arrives are replayed by it.
  if (!window.ym) {
    const stub: YmFunction = (...args: unknown[]) => {
      (stub.a ??= []).push(args);
    };
    stub.l = Date.now();
    window.ym = stub;
  }

  if (!document.getElementById(ANALYTICS_SCRIPT_ID)) {
    const script = document.createElement('script');
    script.id = ANALYTICS_SCRIPT_ID;
    script.async = true;
    script.src = `${TAG_URL}?id=${encodeURIComponent(counterId)}`;
    document.head.appendChild(script);
  }

  window.ym(Number(counterId), 'init', {
    defer: true,
    clickmap: true,
    trackLinks: true,
    accurateTrackBounce: true,
  });
}

/** Reports one page view. */
export function trackPageView(counterId: string, url: string, referrer?: string): void {
  window.ym?.(Number(counterId), 'hit', url, referrer ? { referer: referrer } : {});
}
