import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * What the articles page shows, kept in the URL (`?q=`, `?category=`, `?tag=`, `?page=`) so a
 * list can be shared and Back/Forward of the browser walk through it. At most one of search,
 * category and tag is set (docs/product.md, States).
 */
export interface ArticlesListState {
  q: string;
  category: string;
  tag: string;
  page: number;
}

export function readListState(params: URLSearchParams): ArticlesListState {
  const q = params.get('q')?.trim() ?? '';
  const category = q ? '' : (params.get('category') ?? '');
  const tag = q || category ? '' : (params.get('tag') ?? '');
  const page = Number(params.get('page'));
  return { q, category, tag, page: Number.isInteger(page) && page > 1 ? page : 1 };
}

/** The URL query of a list state (also names a loaded list in the page, for tests and tools). */
export function toParams(state: ArticlesListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  else if (state.category) params.set('category', state.category);
  else if (state.tag) params.set('tag', state.tag);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

const initial: ArticlesListState = { q: '', category: '', tag: '', page: 1 };

export function useArticlesListState() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const go = useCallback(
    (next: ArticlesListState, replace = false) => setParams(toParams(next), { replace }),
    [setParams],
  );

  return {
    state,
    /** Choosing a category clears the tag and the search. */
    chooseCategory: useCallback((category: string) => go({ ...initial, category }), [go]),
    /** Choosing a tag clears the category and the search. */
    chooseTag: useCallback((tag: string) => go({ ...initial, tag }), [go]),
    /**
     * A search replaces any category or tag; blank text clears the search results. Refining a
     * search replaces the history entry; starting or clearing one adds an entry.
     */
    search: useCallback(
      (q: string) => go({ ...initial, q: q.trim() }, state.q !== '' && q.trim() !== ''),
      [go, state.q],
    ),
    goToPage: useCallback((page: number) => go({ ...state, page }), [go, state]),
  };
}
