import { ADMIN_TARIFFS_SORT_FIELDS, type Tariff } from '@gpt/contracts';
import { useEffect, useMemo } from 'react';

import { ActiveTag } from '@/components/ui/active-tag';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { AddButton, useCrudDialogs, useDeleteRow, useSaveRow } from '@/components/ui/crud-dialogs';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { Icon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toasts';
import { useActionKey } from '@/lib/action-key';
import { errorMessage } from '@/lib/api-client';
import { formatShortDate } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { formatCredits, formatRoubles } from '@/lib/money';
import { useListState } from '@/lib/use-list-state';

import { useDeleteTariff } from '../api/delete-tariff';
import { useAdminTariffs } from '../api/get-admin-tariffs';
import { useSaveTariff } from '../api/save-tariff';
import { ImagesIcon } from './tariff-flags';
import { TariffFormDialog } from './tariff-form-dialog';
import { TariffViewDialog } from './tariff-view-dialog';

const LIST_DEFAULTS = {
  sort: { field: 'id', order: 'asc' as const },
  sortFields: ADMIN_TARIFFS_SORT_FIELDS,
};

const LOAD_FAILED = 'Не удалось загрузить тарифы.';

/** The admin tariffs screen (docs/product.md, Screens): the server-driven table, add / view / edit / delete. */
export function AdminTariffsScreen() {
  const toast = useToast();
  const list = useListState(LIST_DEFAULTS);
  const tariffs = useAdminTariffs(toApiListQuery(list.state));
  const crud = useCrudDialogs<Tariff>();
  const { view, edit, askDelete } = crud;
  // docs/product.md, Errors: a failed save or delete is told by a toast with the server's text.
  const saving = useSaveRow(crud, useSaveTariff(useActionKey(crud.formOpen)), {
    created: 'Тариф создан',
    saved: 'Тариф сохранен',
    nameOf: (t) => t.name,
    failed: 'Произошла ошибка при сохранении',
    failureIn: 'toast',
  });
  const deleting = useDeleteRow(crud, useDeleteTariff(useActionKey(crud.deleted !== null)), {
    idOf: (t) => t.id,
    deleted: 'Тариф удален',
    nameOf: (t) => t.name,
    failed: 'Произошла ошибка при удалении',
    failureIn: 'toast',
  });

  // docs/product.md, Errors: a failed load is told by a toast (and the screen's banner).
  const loadError = tariffs.isError ? tariffs.error : null;
  useEffect(() => {
    if (loadError) toast.error('Ошибка', LOAD_FAILED);
  }, [loadError, toast]);

  const columns = useMemo<DataColumn<Tariff>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (t) => t.id, width: 50 },
      { id: 'name', header: 'Название', cell: (t) => t.name, className: 'fw-medium' },
      {
        id: 'description',
        header: 'Описание',
        // One line in the table (the cell is as wide as it, so it never runs past the cell); the view dialog shows it whole.
        cell: (t) => (
          <span
            className="d-inline-block text-truncate text-body-secondary small align-middle"
            style={{ maxWidth: 110 }}
            title={t.description ?? undefined}
          >
            {t.description}
          </span>
        ),
        sortable: false,
      },
      {
        id: 'monthly_price',
        header: <span title="Цена в месяц">Цена</span>,
        cell: (t) => formatRoubles(t.monthly_price),
        className: 'text-end text-nowrap',
      },
      {
        id: 'credits_per_ruble',
        header: <span title="Кредитов за 1 ₽">Кр. за 1 ₽</span>,
        cell: (t) => formatCredits(t.credits_per_ruble),
        className: 'text-end',
      },
      {
        id: 'included_credits',
        header: <span title="Включённые кредиты">Включено</span>,
        cell: (t) => formatCredits(t.included_credits),
        className: 'text-end text-nowrap',
      },
      {
        id: 'can_generate_images',
        header: <Icon name="image" size={16} title="Генерация изображений" />,
        cell: (t) => <ImagesIcon allowed={t.can_generate_images} />,
        className: 'text-center',
      },
      { id: 'is_active', header: 'Статус', cell: (t) => <ActiveTag active={t.is_active} /> },
      { id: 'created_at', header: 'Создан', cell: (t) => formatShortDate(t.created_at), className: 'text-nowrap' },
      actionsColumn((t) => [
        rowAction.view(() => view(t)),
        rowAction.edit(() => edit(t)),
        rowAction.delete(() => askDelete(t)),
      ]),
    ],
    [view, edit, askDelete],
  );

  return (
    <>
      <ErrorBanner message={loadError ? errorMessage(loadError, LOAD_FAILED) : null} />
      <div className="d-flex justify-content-end mb-3">
        <AddButton onClick={crud.create}>Добавить тариф</AddButton>
      </div>
      <DataTable
        {...list.table}
        columns={columns}
        rows={tariffs.data?.data}
        rowCount={tariffs.data?.total ?? 0}
        getRowId={(t) => t.id}
        loading={tariffs.isFetching}
        emptyText="Тарифов нет"
        label="Тарифы"
      />
      <TariffViewDialog tariff={crud.viewed} onHide={crud.closeView} />
      <TariffFormDialog key={crud.formKey} tariff={crud.editedRow} {...saving.dialog} />
      <ConfirmDialog
        {...deleting.dialog}
        title="Удаление тарифа"
        message={
          <>
            Вы действительно хотите удалить тариф <strong>«{crud.deleted?.name}»</strong>?
          </>
        }
      />
    </>
  );
}
