/**
 * State of a server-driven admin list (docs/product.md, Calls and Limits) and its two encodings:
 * the page URL (shareable, back/forward) and the API query string.
 *
 * - URL: `?page=2&pageSize=20&sortField=email&sortOrder=asc&email=foo` — 1-based page; values equal to
 *   the defaults are left out, so a fresh list has a clean URL. Filter names are used as URL keys as they are
 *   (so `/admin/history?userId=5` pre-fills the `userId` filter); they must not be one of the four keys above.
 * - API: `toApiListQuery(state)` → `{ page: pageIndex + 1, limit, sortField, sortOrder: 1 | -1, ...non-blank filters }`.
 *
 * The React side is `useListState` in `./use-list-state`.
 */

/** Admin table page sizes (docs/product.md, Limits). */
export const PAGE_SIZES = [10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;

export type SortOrder = 'asc' | 'desc';

export interface SortState {
  /** The API's sortField, also the DataTable column id. */
  field: string;
  order: SortOrder;
}

/** What a server-driven table shows: a 0-based page, its size and one sort. */
export interface TableState {
  pageIndex: number;
  pageSize: number;
  sorting: SortState;
}

export interface ListState<F extends string = never> extends TableState {
  filters: Record<F, string>;
}

export interface ListDefaults<F extends string = never> {
  /** Default sort of the screen (docs/product.md, Limits), e.g. `{ field: 'id', order: 'desc' }`. */
  sort: SortState;
  /** Default 10. */
  pageSize?: number;
  /** Filter names with their default values (usually ''). */
  filters?: Record<F, string>;
  /** Sortable fields; a URL naming another field falls back to the default sort. */
  sortFields?: readonly string[];
}

export const LIST_URL_KEYS = {
  page: 'page',
  pageSize: 'pageSize',
  sortField: 'sortField',
  sortOrder: 'sortOrder',
} as const;

function defaultFilters<F extends string>(defaults: ListDefaults<F>): Record<F, string> {
  return { ...(defaults.filters ?? ({} as Record<F, string>)) };
}

function positiveInt(text: string | null): number | null {
  if (text === null || !/^\d+$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 && Number.isSafeInteger(value) ? value : null;
}

/** Reads the list state from the URL, falling back to the defaults for anything missing or invalid. */
export function readListState<F extends string = never>(
  params: URLSearchParams,
  defaults: ListDefaults<F>,
): ListState<F> {
  const page = positiveInt(params.get(LIST_URL_KEYS.page));
  const size = positiveInt(params.get(LIST_URL_KEYS.pageSize));
  const field = params.get(LIST_URL_KEYS.sortField);
  const order = params.get(LIST_URL_KEYS.sortOrder);
  const fieldOk = field !== null && field !== '' && (!defaults.sortFields || defaults.sortFields.includes(field));
  const filters = defaultFilters(defaults);
  for (const name of Object.keys(filters) as F[]) {
    const value = params.get(name);
    if (value !== null) filters[name] = value;
  }
  return {
    pageIndex: page === null ? 0 : page - 1,
    pageSize:
      size !== null && (PAGE_SIZES as readonly number[]).includes(size)
        ? size
        : (defaults.pageSize ?? DEFAULT_PAGE_SIZE),
    sorting: {
      field: fieldOk ? field : defaults.sort.field,
      order: order === 'asc' || order === 'desc' ? order : defaults.sort.order,
    },
    filters,
  };
}

/**
 * Writes the list state into a copy of `base` (other parameters are kept), leaving out every value that equals
 * its default.
 */
export function writeListState<F extends string = never>(
  state: ListState<F>,
  defaults: ListDefaults<F>,
  base: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const params = new URLSearchParams(base);
  const set = (key: string, value: string | null) => (value === null ? params.delete(key) : params.set(key, value));
  set(LIST_URL_KEYS.page, state.pageIndex > 0 ? String(state.pageIndex + 1) : null);
  set(
    LIST_URL_KEYS.pageSize,
    state.pageSize !== (defaults.pageSize ?? DEFAULT_PAGE_SIZE) ? String(state.pageSize) : null,
  );
  const defaultSort = state.sorting.field === defaults.sort.field && state.sorting.order === defaults.sort.order;
  set(LIST_URL_KEYS.sortField, defaultSort ? null : state.sorting.field);
  set(LIST_URL_KEYS.sortOrder, defaultSort ? null : state.sorting.order);
  const initial = defaultFilters(defaults);
  for (const name of Object.keys(initial) as F[]) {
    set(name, state.filters[name] === initial[name] ? null : state.filters[name]);
  }
  return params;
}

/** A new table state from the table; a new page size or sort returns to the first page. */
export function changeTable<F extends string>(state: ListState<F>, next: TableState): ListState<F> {
  const sortChanged = next.sorting.field !== state.sorting.field || next.sorting.order !== state.sorting.order;
  const restart = sortChanged || next.pageSize !== state.pageSize;
  return {
    ...state,
    pageIndex: restart ? 0 : Math.max(0, next.pageIndex),
    pageSize: next.pageSize,
    sorting: next.sorting,
  };
}

/** New filter values; any filter change returns to the first page. */
export function changeFilters<F extends string>(state: ListState<F>, patch: Partial<Record<F, string>>): ListState<F> {
  return { ...state, pageIndex: 0, filters: { ...state.filters, ...patch } };
}

/** Filters back to their defaults, first page; page size and sort stay. */
export function clearFilters<F extends string>(state: ListState<F>, defaults: ListDefaults<F>): ListState<F> {
  return { ...state, pageIndex: 0, filters: defaultFilters(defaults) };
}

export interface ApiListQueryOptions {
  /** Name of the page-size parameter: `limit` (default) or e.g. `pageSize` for the history list. */
  limitKey?: string;
}

/**
 * The docs/product.md, Calls list query: `page` is 1-based, `sortOrder` is 1 for ascending and -1 for descending; filters are
 * trimmed and blank ones left out. Pass it as `callRoute(id, { query })`.
 */
export function toApiListQuery<F extends string>(
  state: ListState<F>,
  { limitKey = 'limit' }: ApiListQueryOptions = {},
): Record<string, string | number> {
  const query: Record<string, string | number> = {
    page: state.pageIndex + 1,
    [limitKey]: state.pageSize,
    sortField: state.sorting.field,
    sortOrder: state.sorting.order === 'asc' ? 1 : -1,
  };
  for (const [name, value] of Object.entries<string>(state.filters)) {
    const trimmed = value.trim();
    if (trimmed !== '') query[name] = trimmed;
  }
  return query;
}
