import { useSearchParams } from 'react-router-dom';

import {
  changeFilters,
  changeTable,
  clearFilters,
  readListState,
  writeListState,
  type ListDefaults,
  type ListState,
  type TableState,
} from './list-params';

export interface NavigateOptions {
  /** Replace the history entry instead of pushing one (e.g. while typing into a live filter). */
  replace?: boolean;
}

export interface ListStateApi<F extends string> {
  /** Everything the list shows; feed `toApiListQuery(list.state)` into the query and its key. */
  state: ListState<F>;
  /** Spread into the DataTable: `<DataTable {...list.table} ... />`. */
  table: { state: TableState; onStateChange: (next: TableState, options?: NavigateOptions) => void };
  /** Sets some filters and returns to page 1. */
  setFilters: (patch: Partial<Record<F, string>>, options?: NavigateOptions) => void;
  /** Filters back to their defaults, page 1. */
  resetFilters: () => void;
  setPage: (pageIndex: number) => void;
}

/**
 * Admin list state kept in the URL search params, so a list is shareable and back/forward moves through it.
 *
 * ```tsx
 * const list = useListState({ sort: { field: 'id', order: 'desc' }, filters: { email: '', username: '' } });
 * const query = useQuery({ queryKey: ['admin-users', list.state], queryFn: () => getUsers(toApiListQuery(list.state)),
 *   placeholderData: keepPreviousData });
 * <DataTable {...list.table} columns={columns} rows={query.data?.users} rowCount={query.data?.total ?? 0} ... />
 * list.setFilters({ email: 'a@b.c' });   // → page 1
 * ```
 * Defaults may be an inline object literal; parameters the list does not own are left in the URL.
 */
export function useListState<F extends string = never>(defaults: ListDefaults<F>): ListStateApi<F> {
  const [params, setParams] = useSearchParams();
  const state = readListState(params, defaults);

  const update = (change: (current: ListState<F>) => ListState<F>, options: NavigateOptions = {}) =>
    setParams((prev) => writeListState(change(readListState(prev, defaults)), defaults, prev), {
      replace: options.replace ?? false,
      preventScrollReset: true,
    });

  return {
    state,
    table: {
      state: { pageIndex: state.pageIndex, pageSize: state.pageSize, sorting: state.sorting },
      onStateChange: (next, options) => update((current) => changeTable(current, next), options),
    },
    setFilters: (patch, options) => update((current) => changeFilters(current, patch), options),
    resetFilters: () => update((current) => clearFilters(current, defaults)),
    setPage: (pageIndex) => update((current) => ({ ...current, pageIndex: Math.max(0, pageIndex) })),
  };
}
