import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

/** Typing settles for this long before a text filter applies. */
export const TYPING_PAUSE_MS = 400;

const same = <F extends string>(a: Record<F, string>, b: Record<F, string>) =>
  (Object.keys(a) as F[]).every((name) => a[name] === b[name]);

export interface DraftFilters<F extends string> {
  /** What the fields show. */
  draft: Record<F, string>;
  /** Changes fields; they apply after the typing pause. */
  edit: (patch: Partial<Record<F, string>>) => void;
  /** Applies the fields now (Enter in a field). */
  flush: () => void;
  /** A field's onKeyDown: Enter applies the fields now. */
  applyOnEnter: (event: KeyboardEvent) => void;
}

/**
 * Live text filters of an admin list: the fields apply after a short typing pause (any change of
 * the list's filters returns it to page 1), and follow the applied filters when they change from
 * elsewhere (reset, back / forward).
 *
 * ```tsx
 * const filters = useDraftFilters(list.state.filters, (next) => list.setFilters(next, { replace: true }));
 * <Form.Control value={filters.draft.username} onChange={(e) => filters.edit({ username: e.target.value })} />
 * ```
 */
export function useDraftFilters<F extends string>(
  applied: Record<F, string>,
  apply: (next: Record<F, string>) => void,
): DraftFilters<F> {
  const [draft, setDraft] = useState(applied);
  const [seen, setSeen] = useState(applied);
  const [sent, setSent] = useState<Record<F, string> | null>(null);
  if (!same(seen, applied)) {
    setSeen(applied);
    // Not what this hook applied: the URL changed from elsewhere, the fields follow it.
    if (!(sent && same(sent, applied))) setDraft(applied);
  }

  // The latest callback, without restarting the pause whenever the parent renders.
  const applyRef = useRef(apply);
  useEffect(() => {
    applyRef.current = apply;
  });
  const send = (next: Record<F, string>) => {
    setSent(next);
    applyRef.current(next);
  };

  const pending = !same(draft, applied);
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setTimeout(() => send(draft), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
    // `send` only reads refs and setters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft, pending]);

  const flush = () => {
    if (pending) send(draft);
  };
  return {
    draft,
    edit: (patch) => setDraft((current) => ({ ...current, ...patch })),
    flush,
    applyOnEnter: (event) => {
      if (event.key === 'Enter') flush();
    },
  };
}
