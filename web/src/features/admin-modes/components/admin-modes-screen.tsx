import { ADMIN_MODES_SORT_FIELDS, type ChatMode } from '@gpt/contracts';
import { useMemo } from 'react';

import { ActiveTag } from '@/components/ui/active-tag';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { AddButton, useCrudDialogs, useDeleteRow, useSaveRow } from '@/components/ui/crud-dialogs';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { errorMessage } from '@/lib/api-client';
import { formatShortDate } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { useListState } from '@/lib/use-list-state';

import { useDeleteMode } from '../api/delete-mode';
import { useAdminModes } from '../api/get-admin-modes';
import { useSaveMode } from '../api/save-mode';
import { DefaultMark } from './default-mark';
import { ModeFormDialog } from './mode-form-dialog';
import { ModeViewDialog } from './mode-view-dialog';
import { ModesSearch } from './modes-search';

const LIST_DEFAULTS = {
  sort: { field: 'sort_order', order: 'asc' as const },
  sortFields: ADMIN_MODES_SORT_FIELDS,
  filters: { q: '' },
};

/** The admin chat modes screen: the server-driven table with search, add / view / edit / delete. */
export function AdminModesScreen() {
  const list = useListState(LIST_DEFAULTS);
  const modes = useAdminModes(toApiListQuery(list.state));
  const crud = useCrudDialogs<ChatMode>();
  const { view, edit, askDelete } = crud;
  const saving = useSaveRow(crud, useSaveMode(), {
    created: 'Режим добавлен',
    saved: 'Режим сохранён',
    nameOf: (m) => m.name,
    failed: 'Ошибка сохранения режима',
  });
  const deleting = useDeleteRow(crud, useDeleteMode(), {
    idOf: (m) => m.id,
    deleted: 'Режим удалён',
    nameOf: (m) => m.name,
    failed: 'Ошибка удаления режима',
  });

  const columns = useMemo<DataColumn<ChatMode>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (m) => m.id, width: 50 },
      { id: 'sort_order', header: 'Порядок', cell: (m) => m.sort_order, className: 'text-end' },
      {
        id: 'name',
        header: 'Режим',
        cell: (m) => (
          <span className="fw-medium text-nowrap">
            <span aria-hidden="true" className="me-1">
              {m.emoji}
            </span>
            {m.name}
          </span>
        ),
      },
      {
        id: 'description',
        header: 'Описание',
        cell: (m) => <span className="text-body-secondary small">{m.description}</span>,
        sortable: false,
      },
      { id: 'is_default', header: 'По умолчанию', cell: (m) => <DefaultMark isDefault={m.is_default} /> },
      { id: 'is_active', header: 'Статус', cell: (m) => <ActiveTag active={m.is_active} /> },
      { id: 'created_at', header: 'Создан', cell: (m) => formatShortDate(m.created_at), className: 'text-nowrap' },
      actionsColumn((m) => [
        rowAction.view(() => view(m)),
        rowAction.edit(() => edit(m)),
        rowAction.delete(() => askDelete(m)),
      ]),
    ],
    [view, edit, askDelete],
  );

  return (
    <>
      <ErrorBanner message={modes.isError ? errorMessage(modes.error, 'Ошибка загрузки режимов.') : null} />
      <ModesSearch
        applied={list.state.filters}
        onChange={(next) => list.setFilters(next, { replace: true })}
        onReset={list.resetFilters}
      />
      <div className="d-flex justify-content-end mb-3">
        <AddButton onClick={crud.create}>Добавить режим</AddButton>
      </div>
      <DataTable
        {...list.table}
        columns={columns}
        rows={modes.data?.modes}
        rowCount={modes.data?.total ?? 0}
        getRowId={(m) => m.id}
        loading={modes.isFetching}
        emptyText="Режимов нет"
        label="Режимы"
      />
      <ModeViewDialog mode={crud.viewed} onHide={crud.closeView} />
      <ModeFormDialog key={crud.formKey} mode={crud.editedRow} {...saving.dialog} />
      <ConfirmDialog
        {...deleting.dialog}
        title="Удаление режима"
        message={
          <>
            Вы действительно хотите удалить режим <strong>«{crud.deleted?.name}»</strong>?
          </>
        }
      />
    </>
  );
}
