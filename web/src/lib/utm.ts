/** The utm_source a visitor arrived with, kept for their sign-up (first touch wins). */
const UTM_KEY = 'utm_source';
const MAX_LENGTH = 100;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Reads `utm_source` from the landing URL's query and keeps it unless one is already kept. */
export function captureUtmSource(search: string): void {
  const source = new URLSearchParams(search).get(UTM_KEY)?.trim().slice(0, MAX_LENGTH);
  const store = storage();
  if (source && store && !store.getItem(UTM_KEY)) store.setItem(UTM_KEY, source);
}

/** The kept utm_source, or null. */
export function readUtmSource(): string | null {
  return storage()?.getItem(UTM_KEY) || null;
}
