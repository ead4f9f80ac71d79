import { ADMIN_PROMO_CODES_SORT_FIELDS, type PromoCode } from '@gpt/contracts';
import { useEffect, useMemo } from 'react';
import Col from 'react-bootstrap/Col';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { AddButton, useCrudDialogs, useDeleteRow, useSaveRow } from '@/components/ui/crud-dialogs';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { ErrorBanner } from '@/components/ui/error-banner';
import { FiltersCard, FilterText, ResetFiltersButton } from '@/components/ui/list-filters';
import { useToast } from '@/components/ui/toasts';
import { useActionKey } from '@/lib/action-key';
import { errorMessage } from '@/lib/api-client';
import { formatShortDate } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { useDraftFilters } from '@/lib/use-draft-filters';
import { useListState } from '@/lib/use-list-state';

import { useDeletePromoCode } from '../api/delete-promo-code';
import { useAdminPromoCodes } from '../api/get-admin-promo-codes';
import { useSavePromoCode } from '../api/save-promo-code';
import { promoGift } from '../format';
import { PromoCodeFormDialog } from './promo-code-form-dialog';
import { PromoActiveTag, PromoCodeViewDialog } from './promo-code-view-dialog';

const LIST_DEFAULTS = {
  sort: { field: 'id', order: 'desc' as const },
  sortFields: ADMIN_PROMO_CODES_SORT_FIELDS,
  filters: { search: '' },
};

const LOAD_FAILED = 'Не удалось загрузить промокоды.';

/** The admin promo codes screen: search, the server-driven table, add / view / edit / delete. */
export function AdminPromoCodesScreen() {
  const toast = useToast();
  const list = useListState(LIST_DEFAULTS);
  const codes = useAdminPromoCodes(toApiListQuery(list.state));
  const filters = useDraftFilters(list.state.filters, (next) => list.setFilters(next, { replace: true }));
  const crud = useCrudDialogs<PromoCode>();
  const { view, edit, askDelete } = crud;
  const saving = useSaveRow(crud, useSavePromoCode(useActionKey(crud.formOpen)), {
    created: 'Промокод создан',
    saved: 'Промокод сохранён',
    nameOf: (c) => c.code,
    failed: 'Произошла ошибка при сохранении',
  });
  const deleting = useDeleteRow(crud, useDeletePromoCode(useActionKey(crud.deleted !== null)), {
    idOf: (c) => c.id,
    deleted: 'Промокод удалён',
    nameOf: (c) => c.code,
    failed: 'Произошла ошибка при удалении',
    failureIn: 'toast',
  });

  const loadError = codes.isError ? codes.error : null;
  useEffect(() => {
    if (loadError) toast.error('Ошибка', LOAD_FAILED);
  }, [loadError, toast]);

  const columns = useMemo<DataColumn<PromoCode>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (c) => c.id, width: 50 },
      { id: 'code', header: 'Код', cell: (c) => <span translate="no">{c.code}</span>, className: 'fw-medium' },
      { id: 'kind', header: 'Даёт', cell: (c) => promoGift(c), className: 'text-nowrap' },
      {
        id: 'used_count',
        header: 'Использован',
        cell: (c) => `${c.used_count} / ${c.max_uses}`,
        className: 'text-end text-nowrap',
      },
      {
        id: 'valid_from',
        header: 'С',
        cell: (c) => (c.valid_from ? formatShortDate(c.valid_from) : '—'),
        className: 'text-nowrap',
      },
      {
        id: 'valid_until',
        header: 'До',
        cell: (c) => (c.valid_until ? formatShortDate(c.valid_until) : '—'),
        className: 'text-nowrap',
      },
      { id: 'is_active', header: 'Статус', cell: (c) => <PromoActiveTag active={c.is_active} /> },
      actionsColumn((c) => [
        rowAction.view(() => view(c)),
        rowAction.edit(() => edit(c)),
        rowAction.delete(() => askDelete(c)),
      ]),
    ],
    [view, edit, askDelete],
  );

  return (
    <>
      <ErrorBanner message={loadError ? errorMessage(loadError, LOAD_FAILED) : null} />
      <FiltersCard>
        <Col xs={12} md={6}>
          <FilterText
            controlId="promo-filter-search"
            label="Поиск по коду"
            placeholder="Часть кода"
            value={filters.draft.search}
            onChange={(event) => filters.edit({ search: event.target.value })}
            onKeyDown={(event) => event.key === 'Enter' && filters.flush()}
          />
        </Col>
        <Col xs={12} md={2}>
          <ResetFiltersButton onReset={list.resetFilters} />
        </Col>
        <Col xs={12} md={4} className="d-flex justify-content-md-end">
          <AddButton onClick={crud.create}>Добавить промокод</AddButton>
        </Col>
      </FiltersCard>
      <DataTable
        {...list.table}
        columns={columns}
        rows={codes.data?.data}
        rowCount={codes.data?.total ?? 0}
        getRowId={(c) => c.id}
        loading={codes.isFetching}
        emptyText="Промокодов нет"
        label="Промокоды"
      />
      <PromoCodeViewDialog promoCode={crud.viewed} onHide={crud.closeView} />
      <PromoCodeFormDialog key={crud.formKey} promoCode={crud.editedRow} {...saving.dialog} />
      <ConfirmDialog
        {...deleting.dialog}
        title="Удаление промокода"
        message={
          <>
            Вы действительно хотите удалить промокод <strong translate="no">{crud.deleted?.code}</strong>?
          </>
        }
      />
    </>
  );
}
