import type { Tariff } from '@gpt/contracts';
import { useEffect, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { Icon } from '@/components/ui/icons';
import { useToast } from '@/components/ui/toasts';
import { errorMessage } from '@/lib/api-client';
import { formatShortDate } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { formatCredits, formatRoubles } from '@/lib/money';
import { useListState } from '@/lib/use-list-state';

import { useDeleteTariff } from '../api/delete-tariff';
import { useAdminTariffs } from '../api/get-admin-tariffs';
import { useSaveTariff, type TariffBody } from '../api/save-tariff';
import { ActiveTag, ImagesIcon } from './tariff-flags';
import { TariffFormDialog } from './tariff-form-dialog';
import { TariffViewDialog } from './tariff-view-dialog';

const LIST_DEFAULTS = {
  sort: { field: 'id', order: 'asc' as const },
  sortFields: [
    'id',
    'name',
    'monthly_price',
    'credits_per_ruble',
    'included_credits',
    'can_generate_images',
    'is_active',
    'created_at',
  ],
};

const LOAD_FAILED = 'Не удалось загрузить тарифы';

/** The admin tariffs screen (spec §2): the server-driven table, add / view / edit / delete. */
export function AdminTariffsScreen() {
  const toast = useToast();
  const list = useListState(LIST_DEFAULTS);
  const tariffs = useAdminTariffs(toApiListQuery(list.state));
  const save = useSaveTariff();
  const remove = useDeleteTariff();
  const [viewed, setViewed] = useState<Tariff | null>(null);
  /** The tariff in the form dialog: 'new' for a new one. */
  const [edited, setEdited] = useState<Tariff | 'new' | null>(null);
  const [deleted, setDeleted] = useState<Tariff | null>(null);

  // Spec §8: a failed load is told by a toast (and the screen's banner).
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
        // One line in the table; the view dialog shows it whole.
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
        width: 110,
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
        rowAction.view(() => setViewed(t)),
        rowAction.edit(() => setEdited(t)),
        rowAction.delete(() => setDeleted(t)),
      ]),
    ],
    [],
  );

  function submit(body: TariffBody) {
    const target = edited === 'new' ? undefined : edited?.id;
    save.mutate(
      { ...body, id: target },
      {
        onSuccess: (tariff) => {
          toast.success(target === undefined ? 'Тариф создан' : 'Тариф сохранен', tariff.name);
          setEdited(null);
        },
        onError: (err) => toast.error('Ошибка', errorMessage(err, 'Произошла ошибка при сохранении')),
      },
    );
  }

  function confirmDelete() {
    if (!deleted) return;
    remove.mutate(deleted.id, {
      onSuccess: () => {
        toast.success('Тариф удален', deleted.name);
        setDeleted(null);
      },
      onError: (err) => toast.error('Ошибка', errorMessage(err, 'Произошла ошибка при удалении')),
    });
  }

  return (
    <>
      <ErrorBanner message={loadError ? errorMessage(loadError, LOAD_FAILED) : null} />
      <div className="d-flex justify-content-end mb-3">
        <Button variant="primary" onClick={() => setEdited('new')}>
          <Icon name="plus" size={16} className="me-1" />
          Добавить тариф
        </Button>
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
      <TariffViewDialog tariff={viewed} onHide={() => setViewed(null)} />
      <TariffFormDialog
        key={edited === null ? 'closed' : edited === 'new' ? 'new' : edited.id}
        show={edited !== null}
        tariff={edited === 'new' ? null : edited}
        saving={save.isPending}
        onHide={() => setEdited(null)}
        onSave={submit}
      />
      <ConfirmDialog
        show={deleted !== null}
        title="Удаление тарифа"
        message={
          <>
            Вы действительно хотите удалить тариф <strong>«{deleted?.name}»</strong>?
          </>
        }
        onConfirm={confirmDelete}
        onCancel={() => setDeleted(null)}
        pending={remove.isPending}
      />
    </>
  );
}
