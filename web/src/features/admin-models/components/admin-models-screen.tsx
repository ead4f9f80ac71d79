import { ADMIN_MODELS_SORT_FIELDS, type AiModel } from '@gpt/contracts';
import { useMemo } from 'react';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { AddButton, useCrudDialogs, useDeleteRow, useSaveRow } from '@/components/ui/crud-dialogs';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { useActionKey } from '@/lib/action-key';
import { errorMessage } from '@/lib/api-client';
import { formatShortDate } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { formatUsd } from '@/lib/money';
import { useListState } from '@/lib/use-list-state';

import { useDeleteModel } from '../api/delete-model';
import { useAdminModels } from '../api/get-admin-models';
import { useSaveModel } from '../api/save-model';
import { ModelFormDialog } from './model-form-dialog';
import { ModelStatus } from './model-status';

const LIST_DEFAULTS = {
  sort: { field: 'created_at', order: 'desc' as const },
  sortFields: ADMIN_MODELS_SORT_FIELDS,
};

/** The prices of the work besides tokens a model does (an image, a minute of speech, 1 000 characters spoken); a dash for none. */
function otherPrices(model: AiModel) {
  const prices = [
    model.image_price === null ? null : [formatUsd(model.image_price), 'изобр.'],
    model.transcription_price_per_minute === null ? null : [formatUsd(model.transcription_price_per_minute), 'мин'],
    model.speech_price_per_1k_chars === null ? null : [formatUsd(model.speech_price_per_1k_chars), '1 000 симв.'],
  ].filter((price) => price !== null);
  // A line breaks only at its « / », never inside the sum or the unit.
  return prices.length === 0
    ? '—'
    : prices.map(([sum, unit]) => (
        <div key={unit}>
          <span className="text-nowrap">{sum}</span> / <span className="text-nowrap">{unit}</span>
        </div>
      ));
}

/** The admin models screen (docs/product.md, Screens): the server-driven table, add / edit / delete with the spec's texts. */
export function AdminModelsScreen() {
  const list = useListState(LIST_DEFAULTS);
  const models = useAdminModels(toApiListQuery(list.state));
  const crud = useCrudDialogs<AiModel>();
  const { edit, askDelete } = crud;
  const saving = useSaveRow(crud, useSaveModel(useActionKey(crud.formOpen)), {
    created: 'Модель добавлена',
    saved: 'Модель сохранена',
    nameOf: (m) => m.model,
    failed: 'Ошибка сохранения модели',
  });
  const deleting = useDeleteRow(crud, useDeleteModel(useActionKey(crud.deleted !== null)), {
    idOf: (m) => m.id,
    deleted: 'Модель удалена',
    nameOf: (m) => m.model,
    failed: 'Ошибка удаления модели',
  });

  const columns = useMemo<DataColumn<AiModel>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (m) => m.id, width: 50 },
      { id: 'model', header: 'Модель', cell: (m) => <code className="fw-medium model-name">{m.model}</code> },
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
      {
        id: 'image_price',
        // Two lines of header, so the column is as narrow as its prices.
        header: (
          <span className="text-wrap" title="Изображение, распознавание речи, озвучивание">
            Другие цены
          </span>
        ),
        cell: (m) => otherPrices(m),
        className: 'text-end',
        sortable: false,
      },
      { id: 'is_active', header: 'Статус', cell: (m) => <ModelStatus active={m.is_active} /> },
      { id: 'created_at', header: 'Создана', cell: (m) => formatShortDate(m.created_at), className: 'text-nowrap' },
      actionsColumn((m) => [rowAction.edit(() => edit(m)), rowAction.delete(() => askDelete(m))]),
    ],
    [edit, askDelete],
  );

  return (
    <>
      <ErrorBanner message={models.isError ? errorMessage(models.error, 'Ошибка загрузки моделей.') : null} />
      <div className="d-flex justify-content-end mb-3">
        <AddButton onClick={crud.create}>Добавить модель</AddButton>
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
      <ModelFormDialog key={crud.formKey} model={crud.editedRow} {...saving.dialog} />
      <ConfirmDialog
        {...deleting.dialog}
        title="Удаление модели"
        message={
          <>
            Вы уверены, что хотите удалить модель <strong>«{crud.deleted?.model}»</strong>?
          </>
        }
      />
    </>
  );
}
