/**
 * Server-driven admin table: the server pages and sorts, the table shows one page (docs/product.md, Screens, Calls and Limits).
 *
 * ```tsx
 * const list = useListState({ sort: { field: 'id', order: 'desc' }, filters: { email: '' } });
 * const users = useQuery({ ..., placeholderData: keepPreviousData });
 * const columns: DataColumn<AdminUser>[] = [
 *   { id: 'id', header: 'ID', cell: (u) => u.id, width: 80 },
 *   { id: 'email', header: 'Email', cell: (u) => u.email },
 *   { id: 'utm_source', header: 'Источник', cell: (u) => u.utm_source || 'organic', sortable: false },
 *   actionsColumn((u) => [
 *     rowAction.view(() => setViewed(u)),
 *     rowAction.edit(() => setEdited(u)),
 *     rowAction.delete(() => setDeleted(u)),
 *     u.messages_count > 0 && rowAction.history(() => navigate(`/admin/history?userId=${u.id}`)),
 *   ]),
 * ];
 * <DataTable {...list.table} columns={columns} rows={users.data?.users} rowCount={users.data?.total ?? 0}
 *   getRowId={(u) => u.id} loading={users.isFetching} label="Пользователи" />
 * ```
 * - A column's `id` is the API `sortField`; columns are sortable unless `sortable: false`.
 *   Clicking a header sorts ascending, clicking again toggles (▲ / ▼).
 * - `loading` keeps the current rows under a spinner overlay (pair with `placeholderData: keepPreviousData`);
 *   with no rows yet it shows a spinner row.
 * - Footer: «Всего: N», «Страница X из Y», first/previous/next/last, page size 10 / 20 / 50.
 *   A new page size or sort returns to page 1; a page past the end (e.g. after deleting its last row) moves to
 *   the last page. A table given every row at once (`paged={false}`) has «Всего: N» only.
 * - `groupOf` heads each run of rows of one group with a row naming it (rows come ordered by group).
 */
import {
  flexRender,
  functionalUpdate,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type PaginationState,
  type SortingState,
} from '@tanstack/react-table';
import { Fragment, useEffect, useId, useMemo, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Pagination from 'react-bootstrap/Pagination';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';

import { PAGE_SIZES, type TableState } from '@/lib/list-params';

import { Icon, type IconName } from './icons';

export interface DataColumn<T> {
  /** Column id; for a sortable column also the API's `sortField`. */
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Default true. */
  sortable?: boolean;
  /** Fixed width: a number is pixels, a string any CSS width. */
  width?: number | string;
  /** Class of the header and the cells, e.g. 'text-end' or 'text-nowrap'. */
  className?: string;
}

export interface DataTableProps<T> {
  columns: readonly DataColumn<T>[];
  /** The current page; undefined before the first answer. */
  rows: T[] | undefined;
  /** Total rows on the server (the response's `total`). */
  rowCount: number;
  getRowId: (row: T) => string | number;
  state: TableState;
  onStateChange: (next: TableState, options?: { replace?: boolean }) => void;
  /** A request is running (`query.isFetching`). */
  loading?: boolean;
  emptyText?: ReactNode;
  /** Accessible name of the table. */
  label?: string;
  /** False: `rows` are all there is, so no pager. Default true. */
  paged?: boolean;
  /** The group a row belongs to; a row naming the group heads each run of its rows. */
  groupOf?: (row: T) => string;
}

const noRows: never[] = [];

const sortIndicator = { asc: '▲', desc: '▼' } as const;

export function DataTable<T>({
  columns,
  rows,
  rowCount,
  getRowId,
  state,
  onStateChange,
  loading = false,
  emptyText = 'Нет данных',
  label,
  paged = true,
  groupOf,
}: DataTableProps<T>) {
  const pageSizeId = useId();
  const byId = useMemo(() => new Map(columns.map((column) => [column.id, column])), [columns]);
  const columnDefs = useMemo<ColumnDef<T>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        // The server sorts; an accessor only makes the column sortable in the table model.
        accessorFn: (row: T) => row,
        enableSorting: column.sortable ?? true,
        header: () => column.header,
        cell: ({ row }) => column.cell(row.original),
      })),
    [columns],
  );

  const pagination: PaginationState = { pageIndex: state.pageIndex, pageSize: state.pageSize };
  const sorting: SortingState = [{ id: state.sorting.field, desc: state.sorting.order === 'desc' }];

  // The app does not use the React Compiler; the table instance is only read during render.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<T>({
    data: rows ?? noRows,
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(getRowId(row)),
    manualPagination: true,
    manualSorting: true,
    rowCount,
    enableMultiSort: false,
    enableSortingRemoval: false,
    sortDescFirst: false,
    state: { pagination, sorting },
    onPaginationChange: (updater) => {
      const next = functionalUpdate(updater, pagination);
      onStateChange({ ...state, pageIndex: next.pageIndex, pageSize: next.pageSize });
    },
    onSortingChange: (updater) => {
      const [next] = functionalUpdate(updater, sorting);
      if (next) onStateChange({ ...state, sorting: { field: next.id, order: next.desc ? 'desc' : 'asc' } });
    },
  });

  const pageCount = Math.max(1, table.getPageCount());
  const lastPage = pageCount - 1;
  const pastEnd = !loading && rows !== undefined && state.pageIndex > lastPage;
  useEffect(() => {
    if (pastEnd) onStateChange({ ...state, pageIndex: lastPage }, { replace: true });
  }, [pastEnd, lastPage, state, onStateChange]);

  const visibleRows = table.getRowModel().rows;
  const width = (column: DataColumn<T> | undefined) =>
    column?.width === undefined ? undefined : { width: column.width, minWidth: column.width, maxWidth: column.width };

  return (
    <div className="data-table">
      <div className="data-table-body" aria-busy={loading}>
        <Table striped hover responsive className="mb-0 align-middle" aria-label={label}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const column = byId.get(header.column.id);
                  const sorted = header.column.getIsSorted();
                  const content = flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className={column?.className}
                      style={width(column)}
                      aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                    >
                      {header.column.getCanSort() ? (
                        <button
                          type="button"
                          className={`data-table-sort ${sorted ? 'active' : ''}`}
                          onClick={header.column.getToggleSortingHandler()}
                        >
                          {content}
                          <span className="data-table-sort-indicator" aria-hidden>
                            {sorted ? sortIndicator[sorted] : '↕'}
                          </span>
                        </button>
                      ) : (
                        content
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {visibleRows.map((row, index) => {
              const group = groupOf?.(row.original);
              const previous = visibleRows[index - 1];
              const startsGroup = group !== undefined && (!previous || groupOf?.(previous.original) !== group);
              return (
                <Fragment key={row.id}>
                  {startsGroup && (
                    <tr className="data-table-group">
                      <th colSpan={columns.length} scope="rowgroup">
                        {group}
                      </th>
                    </tr>
                  )}
                  <tr>
                    {row.getVisibleCells().map((cell) => {
                      const column = byId.get(cell.column.id);
                      return (
                        <td key={cell.id} className={column?.className} style={width(column)}>
                          {flexRender(cell.column.columnDef.cell, cell.getContext())}
                        </td>
                      );
                    })}
                  </tr>
                </Fragment>
              );
            })}
            {visibleRows.length === 0 && (
              <tr>
                <td colSpan={columns.length} className="data-table-empty text-center text-body-secondary py-5">
                  {rows === undefined && loading ? (
                    <Spinner animation="border" variant="primary" size="sm" role="status">
                      <span className="visually-hidden">Загрузка…</span>
                    </Spinner>
                  ) : (
                    emptyText
                  )}
                </td>
              </tr>
            )}
          </tbody>
        </Table>
        {loading && rows !== undefined && (
          <div className="data-table-overlay" role="status">
            <Spinner animation="border" variant="primary" aria-hidden />
            <span className="visually-hidden">Загрузка…</span>
          </div>
        )}
      </div>
      <div className="data-table-footer">
        <span className="text-body-secondary small">Всего: {rowCount}</span>
        {paged && (
          <Pager table={table} state={state} lastPage={lastPage} pageCount={pageCount} pageSizeId={pageSizeId} />
        )}
      </div>
    </div>
  );
}

/** «Страница X из Y», first/previous/next/last and the page size. */
function Pager<T>({
  table,
  state,
  lastPage,
  pageCount,
  pageSizeId,
}: {
  table: ReturnType<typeof useReactTable<T>>;
  state: TableState;
  lastPage: number;
  pageCount: number;
  pageSizeId: string;
}) {
  return (
    <>
      <span className="small fw-medium" aria-live="polite">
        Страница {Math.min(state.pageIndex, lastPage) + 1} из {pageCount}
      </span>
      <div className="d-flex align-items-center flex-wrap gap-3">
        <Pagination size="sm" className="mb-0" aria-label="Страницы таблицы">
          <PageButton label="Первая страница" disabled={!table.getCanPreviousPage()} onClick={table.firstPage}>
            «
          </PageButton>
          <PageButton label="Предыдущая страница" disabled={!table.getCanPreviousPage()} onClick={table.previousPage}>
            ‹
          </PageButton>
          <PageButton label="Следующая страница" disabled={!table.getCanNextPage()} onClick={table.nextPage}>
            ›
          </PageButton>
          <PageButton label="Последняя страница" disabled={!table.getCanNextPage()} onClick={table.lastPage}>
            »
          </PageButton>
        </Pagination>
        <Form.Group className="d-flex align-items-center gap-2" controlId={pageSizeId}>
          <Form.Label className="small text-body-secondary mb-0 text-nowrap">Показывать по</Form.Label>
          <Form.Select
            size="sm"
            className="data-table-page-size"
            value={state.pageSize}
            onChange={(event) => table.setPageSize(Number(event.target.value))}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </div>
    </>
  );
}

function PageButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    // The name is text, not aria-label: a disabled item renders as a <span>, where aria-label is not allowed.
    <Pagination.Item as="button" type="button" title={label} disabled={disabled} onClick={onClick}>
      <span aria-hidden>{children}</span>
      <span className="visually-hidden">{label}</span>
    </Pagination.Item>
  );
}

/** One icon button of a row's action column. */
export interface RowAction {
  label: string;
  icon: IconName;
  onClick: () => void;
  variant?: 'danger';
  disabled?: boolean;
}

/** The usual row actions, with the same icons and Russian titles on every screen. */
export const rowAction = {
  view: (onClick: () => void): RowAction => ({ label: 'Просмотр', icon: 'eye', onClick }),
  edit: (onClick: () => void): RowAction => ({ label: 'Редактировать', icon: 'edit', onClick }),
  delete: (onClick: () => void): RowAction => ({ label: 'Удалить', icon: 'trash', onClick, variant: 'danger' }),
  history: (onClick: () => void): RowAction => ({ label: 'История сообщений', icon: 'history', onClick }),
  refund: (onClick: () => void): RowAction => ({ label: 'Вернуть платёж', icon: 'undo', onClick, variant: 'danger' }),
};

/** Icon buttons with a title and an aria-label each; false/null/undefined entries are skipped. */
export function RowActions({ actions }: { actions: readonly (RowAction | false | null | undefined)[] }) {
  return (
    <div className="row-actions">
      {actions
        .filter((action): action is RowAction => Boolean(action))
        .map((action) => (
          <Button
            key={action.label}
            variant="link"
            size="sm"
            className={`row-action ${action.variant === 'danger' ? 'row-action-danger' : ''}`}
            title={action.label}
            aria-label={action.label}
            disabled={action.disabled}
            onClick={action.onClick}
          >
            <Icon name={action.icon} size={15} />
          </Button>
        ))}
    </div>
  );
}

/** The actions column (docs/product.md, Limits: 100px wide, not sortable). */
export function actionsColumn<T>(
  actions: (row: T) => readonly (RowAction | false | null | undefined)[],
  header: ReactNode = 'Действия',
): DataColumn<T> {
  return {
    id: 'actions',
    header,
    sortable: false,
    width: 100,
    className: 'data-table-actions',
    cell: (row) => <RowActions actions={actions(row)} />,
  };
}
