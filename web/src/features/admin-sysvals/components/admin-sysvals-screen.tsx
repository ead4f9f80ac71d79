import type { SysVal } from '@gpt/contracts';
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { Icon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toasts';
import { DetailList, ViewDialog } from '@/components/ui/view-dialog';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { useListState } from '@/lib/use-list-state';

import { useSysVals } from '../api/get-sys-vals';
import { useCreateSysVal, useDeleteSysVal, useUpdateSysVal } from '../api/save-sys-val';
import { SysValFormDialog } from './sys-val-form-dialog';

const LIST_DEFAULTS = {
  sort: { field: 'key', order: 'asc' as const },
  sortFields: ['id', 'key', 'created_at', 'updated_at'],
};

/** The settings screen (spec §2): key/value table, view, add, edit (value only) and delete. */
export function AdminSysValsScreen() {
  const toast = useToast();
  const list = useListState(LIST_DEFAULTS);
  const settings = useSysVals(toApiListQuery(list.state));
  const create = useCreateSysVal();
  const update = useUpdateSysVal();
  const remove = useDeleteSysVal();
  const [viewed, setViewed] = useState<SysVal | null>(null);
  /** The setting in the form dialog: 'new' for a new one. */
  const [edited, setEdited] = useState<SysVal | 'new' | null>(null);
  const [deleted, setDeleted] = useState<SysVal | null>(null);

  const columns = useMemo<DataColumn<SysVal>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (s) => s.id, width: 70 },
      { id: 'key', header: 'Ключ', cell: (s) => <code className="fw-medium">{s.key}</code> },
      {
        id: 'value',
        header: 'Значение',
        cell: (s) => <span className="sys-val-value">{s.value}</span>,
        sortable: false,
      },
      { id: 'updated_at', header: 'Обновлено', cell: (s) => formatDateTime(s.updated_at), className: 'text-nowrap' },
      actionsColumn((s) => [
        rowAction.view(() => setViewed(s)),
        rowAction.edit(() => setEdited(s)),
        rowAction.delete(() => setDeleted(s)),
      ]),
    ],
    [],
  );

  function closeForm() {
    create.reset();
    update.reset();
    setEdited(null);
  }

  function submit(values: { key: string; value: string }) {
    const saved = (title: string) => (setting: SysVal) => {
      toast.success(title, setting.key);
      closeForm();
    };
    if (edited === 'new') create.mutate(values, { onSuccess: saved('Настройка добавлена') });
    else if (edited)
      update.mutate({ key: edited.key, value: values.value }, { onSuccess: saved('Настройка сохранена') });
  }

  function confirmDelete() {
    if (!deleted) return;
    remove.mutate(deleted.key, {
      onSuccess: () => {
        toast.success('Настройка удалена', deleted.key);
        setDeleted(null);
      },
    });
  }

  const saveError =
    edited === 'new'
      ? create.isError
        ? errorMessage(create.error, 'Ошибка создания настройки')
        : null
      : update.isError
        ? errorMessage(update.error, 'Ошибка сохранения')
        : null;

  return (
    <>
      <ErrorBanner message={settings.isError ? errorMessage(settings.error, 'Ошибка загрузки настроек') : null} />
      <div className="d-flex justify-content-end mb-3">
        <Button variant="primary" onClick={() => setEdited('new')}>
          <Icon name="plus" size={16} className="me-1" />
          Добавить настройку
        </Button>
      </div>
      <DataTable
        {...list.table}
        columns={columns}
        rows={settings.data?.data}
        rowCount={settings.data?.pagination.total ?? 0}
        getRowId={(s) => s.id}
        loading={settings.isFetching}
        emptyText="Настроек нет"
        label="Настройки"
      />
      <ViewDialog show={viewed !== null} title="Настройка" onHide={() => setViewed(null)}>
        {viewed && (
          <DetailList
            items={[
              { label: 'ID', value: viewed.id },
              { label: 'Ключ', value: <code>{viewed.key}</code> },
              { label: 'Значение', value: <span className="sys-val-value">{viewed.value}</span> },
              { label: 'Создано', value: formatDateTime(viewed.created_at) },
              { label: 'Обновлено', value: formatDateTime(viewed.updated_at) },
            ]}
          />
        )}
      </ViewDialog>
      <SysValFormDialog
        key={edited === null ? 'closed' : edited === 'new' ? 'new' : edited.id}
        show={edited !== null}
        setting={edited === 'new' ? null : edited}
        saving={create.isPending || update.isPending}
        error={saveError}
        onHide={closeForm}
        onSave={submit}
      />
      <ConfirmDialog
        show={deleted !== null}
        title="Удаление настройки"
        message={
          <>
            Вы уверены, что хотите удалить настройку <strong>«{deleted?.key}»</strong>?
          </>
        }
        onConfirm={confirmDelete}
        onCancel={() => {
          remove.reset();
          setDeleted(null);
        }}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, 'Ошибка удаления настройки') : null}
      />
    </>
  );
}
