import { ADMIN_PAYMENTS_SORT_FIELDS, personName, type Payment } from '@gpt/contracts';
import { useMemo, useState } from 'react';

import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { EmailText } from '@/components/ui/email-text';
import { StatusBadge } from '@/components/ui/status-badge';
import { formatDateTime } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { formatCredits, formatRoubles } from '@/lib/money';
import { useListState } from '@/lib/use-list-state';

import { useAdminPayments } from '../api/get-admin-payments';
import { paymentStatusBadge } from '../status';
import { PaymentsFilters, type PaymentFilters } from './payments-filters';
import { PaymentViewDialog } from './payment-view-dialog';

const LIST_DEFAULTS = {
  sort: { field: 'created_at', order: 'desc' as const },
  filters: { userId: '', username: '', status: '' },
  sortFields: ADMIN_PAYMENTS_SORT_FIELDS,
};

/** The admin payments screen (docs/product.md, Screens): filters, the server-driven table and the payment's detail. */
export function AdminPaymentsScreen() {
  const list = useListState(LIST_DEFAULTS);
  const payments = useAdminPayments(toApiListQuery(list.state));
  const [viewed, setViewed] = useState<number | null>(null);

  const columns = useMemo<DataColumn<Payment>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (p) => p.id, width: 60 },
      {
        id: 'username',
        header: 'Пользователь',
        className: 'data-table-person',
        cell: (p) => (
          <>
            <div className="text-break">{personName(p) || (p.email ? <EmailText email={p.email} /> : '—')}</div>
            <div className="small text-body-secondary">ID {p.user_id}</div>
          </>
        ),
      },
      {
        id: 'payment_id',
        header: 'Номер платежа',
        // The full id is in the title and in the detail dialog. Narrower than the sidebar layout, it and the
        // credits (also in the dialog) give way, so the date stays in view beside the sticky actions.
        className: 'd-none d-lg-table-cell',
        cell: (p) => (
          <code
            className="small d-inline-block text-truncate align-middle"
            style={{ maxWidth: 90 }}
            title={p.payment_id}
          >
            {p.payment_id}
          </code>
        ),
      },
      { id: 'amount', header: 'Сумма', cell: (p) => formatRoubles(p.amount), className: 'text-end text-nowrap' },
      {
        id: 'credits_amount',
        header: 'Кредиты',
        cell: (p) => formatCredits(p.credits_amount),
        className: 'text-end text-nowrap d-none d-lg-table-cell',
      },
      { id: 'status', header: 'Статус', cell: (p) => <StatusBadge value={p.status} {...paymentStatusBadge} /> },
      { id: 'created_at', header: 'Создан', cell: (p) => formatDateTime(p.created_at) },
      actionsColumn((p) => [rowAction.view(() => setViewed(p.id))]),
    ],
    [],
  );

  return (
    <>
      <PaymentsFilters
        applied={list.state.filters}
        onChange={(patch: Partial<PaymentFilters>) => list.setFilters(patch, { replace: true })}
        onReset={list.resetFilters}
      />
      <DataTable
        {...list.table}
        columns={columns}
        rows={payments.data?.payments}
        rowCount={payments.data?.total ?? 0}
        getRowId={(p) => p.id}
        loading={payments.isFetching}
        emptyText="Платежи не найдены"
        label="Платежи"
      />
      <PaymentViewDialog paymentId={viewed} onHide={() => setViewed(null)} />
    </>
  );
}
