/**
 * Where a visitor came from, kept for their sign-up (first touch wins): the campaign's
 * `utm_source` and a friend's referral code `ref`, each from the landing URL's query.
 */
const KEPT = { utm_source: 100, ref: 32 } as const;
type KeptKey = keyof typeof KEPT;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Keeps each of `utm_source` and `ref` from the query unless one is already kept. */
export function captureAttribution(search: string): void {
  const query = new URLSearchParams(search);
  const store = storage();
  if (!store) return;
  for (const [key, maxLength] of Object.entries(KEPT) as [KeptKey, number][]) {
    const value = query.get(key)?.trim().slice(0, maxLength);
    if (value && !store.getItem(key)) store.setItem(key, value);
  }
}

const read = (key: KeptKey): string | null => storage()?.getItem(key) || null;

/** The kept utm_source, or null. */
export const readUtmSource = () => read('utm_source');

/** The kept referral code, or null. */
export const readReferralCode = () => read('ref');
