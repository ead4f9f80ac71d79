import type { AiModel } from '@gpt/contracts';
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { Icon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toasts';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { formatUsd } from '@/lib/money';
import { useListState } from '@/lib/use-list-state';

import { useDeleteModel } from '../api/delete-model';
import { useAdminModels } from '../api/get-admin-models';
import { useSaveModel, type ModelBody } from '../api/save-model';
import { ModelFormDialog } from './model-form-dialog';
import { ModelStatus } from './model-status';

const LIST_DEFAULTS = {
  sort: { field: 'created_at', order: 'desc' as const },
  sortFields: ['id', 'model', 'input_price_per_1m', 'output_price_per_1m', 'is_active', 'created_at'],
};

/** The admin models screen (spec §2): the server-driven table, add / edit / delete with the spec's texts. */
export function AdminModelsScreen() {
  const toast = useToast();
  const list = useListState(LIST_DEFAULTS);
  const models = useAdminModels(toApiListQuery(list.state));
  const save = useSaveModel();
  const remove = useDeleteModel();
  /** The model in the form dialog: 'new' for a new one. */
  const [edited, setEdited] = useState<AiModel | 'new' | null>(null);
  const [deleted, setDeleted] = useState<AiModel | null>(null);

  const columns = useMemo<DataColumn<AiModel>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (m) => m.id, width: 70 },
      { id: 'model', header: 'Модель', cell: (m) => <code className="fw-medium">{m.model}</code> },
      {
        id: 'description',
        header: 'Описание',
        cell: (m) => <span className="text-body-secondary small">{m.description}</span>,
        sortable: false,
      },
      {
        id: 'input_price_per_1m',
        header: 'Ввод, $ / 1M',
        cell: (m) => formatUsd(m.input_price_per_1m),
        className: 'text-end text-nowrap',
      },
      {
        id: 'output_price_per_1m',
        header: 'Вывод, $ / 1M',
        cell: (m) => formatUsd(m.output_price_per_1m),
        className: 'text-end text-nowrap',
      },
      { id: 'is_active', header: 'Статус', cell: (m) => <ModelStatus active={m.is_active} /> },
      { id: 'created_at', header: 'Создана', cell: (m) => formatDateTime(m.created_at), className: 'text-nowrap' },
      actionsColumn((m) => [rowAction.edit(() => setEdited(m)), rowAction.delete(() => setDeleted(m))]),
    ],
    [],
  );

  function closeForm() {
    save.reset();
    setEdited(null);
  }

  function submit(body: ModelBody) {
    const id = edited === 'new' ? undefined : edited?.id;
    save.mutate(
      { ...body, id },
      {
        onSuccess: (model) => {
          toast.success(id === undefined ? 'Модель добавлена' : 'Модель сохранена', model.model);
          closeForm();
        },
      },
    );
  }

  function confirmDelete() {
    if (!deleted) return;
    remove.mutate(deleted.id, {
      onSuccess: () => {
        toast.success('Модель удалена', deleted.model);
        setDeleted(null);
      },
    });
  }

  return (
    <>
      <ErrorBanner message={models.isError ? errorMessage(models.error, 'Ошибка загрузки моделей') : null} />
      <div className="d-flex justify-content-end mb-3">
        <Button variant="primary" onClick={() => setEdited('new')}>
          <Icon name="plus" size={16} className="me-1" />
          Добавить модель
        </Button>
      </div>
      <DataTable
        {...list.table}
        columns={columns}
        rows={models.data?.models}
        rowCount={models.data?.total ?? 0}
        getRowId={(m) => m.id}
        loading={models.isFetching}
        emptyText="Моделей нет"
        label="Модели"
      />
      <ModelFormDialog
        key={edited === null ? 'closed' : edited === 'new' ? 'new' : edited.id}
        show={edited !== null}
        model={edited === 'new' ? null : edited}
        saving={save.isPending}
        error={save.isError ? errorMessage(save.error, 'Ошибка сохранения модели') : null}
        onHide={closeForm}
        onSave={submit}
      />
      <ConfirmDialog
        show={deleted !== null}
        title="Удаление модели"
        message={
          <>
            Вы уверены, что хотите удалить модель <strong>«{deleted?.model}»</strong>?
          </>
        }
        onConfirm={confirmDelete}
        onCancel={() => {
          remove.reset();
          setDeleted(null);
        }}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error, 'Ошибка удаления модели') : null}
      />
    </>
  );
}
