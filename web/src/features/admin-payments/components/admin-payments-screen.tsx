import { ADMIN_PAYMENTS_SORT_FIELDS, RefundPaymentForm, type Payment } from '@gpt/contracts';
import { useMemo, useState } from 'react';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { actionsColumn, DataTable, rowAction, type DataColumn } from '@/components/ui/data-table';
import { TextField } from '@/components/ui/form-field';
import { PersonName } from '@/components/ui/person-name';
import { StatusBadge } from '@/components/ui/status-badge';
import { useToast } from '@/components/ui/toasts';
import { useActionKey } from '@/lib/action-key';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { formatCredits, formatRoubles, formatStars } from '@/lib/money';
import { useListState } from '@/lib/use-list-state';

import { useAdminPayments } from '../api/get-admin-payments';
import { useRefundPayment } from '../api/refund-payment';
import { paymentStatusBadge, PAYMENT_PROVIDER_LABELS } from '../status';
import { PaymentsFilters, type PaymentFilters } from './payments-filters';
import { PaymentViewDialog } from './payment-view-dialog';

const LIST_DEFAULTS = {
  sort: { field: 'created_at', order: 'desc' as const },
  filters: { userId: '', username: '', status: '', provider: '' },
  sortFields: ADMIN_PAYMENTS_SORT_FIELDS,
};

/** The admin payments screen (docs/product.md, Screens): filters, the server-driven table and the payment's detail. */
export function AdminPaymentsScreen() {
  const list = useListState(LIST_DEFAULTS);
  const payments = useAdminPayments(toApiListQuery(list.state));
  const [viewed, setViewed] = useState<number | null>(null);
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const refund = useRefundPayment(useActionKey(refunding !== null));
  const toast = useToast();
  const closeRefund = () => {
    setRefunding(null);
    setReason('');
    setReasonError(undefined);
    refund.reset();
  };
  // The reason is required here (docs/money.md, The audit log); the contract's RefundPaymentForm says so.
  const confirmRefund = (payment: Payment) => {
    const form = RefundPaymentForm.safeParse({ reason });
    setReasonError(form.success ? undefined : form.error.issues[0]?.message);
    if (!form.success) return;
    refund.mutate(
      { id: payment.id, reason: form.data.reason },
      {
        onSuccess: () => {
          toast.success('Платёж возвращён', `Платёж ${payment.id} на ${formatRoubles(payment.amount)} возвращён.`);
          closeRefund();
        },
      },
    );
  };

  const columns = useMemo<DataColumn<Payment>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (p) => p.id, width: 60 },
      {
        id: 'username',
        header: 'Пользователь',
        className: 'data-table-person',
        cell: (p) => (
          <>
            <div className="text-break">
              <PersonName person={{ ...p, email: p.user_email }} fallback={p.email} />
            </div>
            <div className="small text-body-secondary">ID {p.user_id}</div>
          </>
        ),
      },
      {
        id: 'payment_id',
        header: 'Номер платежа',
        // The full id is in the title and in the detail dialog. Below 1400 px it gives way, and narrower than
        // the sidebar layout the credits and the provider too (all in the dialog), so the date stays in view
        // beside the actions.
        className: 'd-none d-xxl-table-cell',
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
      {
        id: 'amount',
        header: 'Сумма',
        cell: (p) => (
          <>
            {formatRoubles(p.amount)}
            {p.star_amount !== null && <div className="small text-body-secondary">{formatStars(p.star_amount)}</div>}
          </>
        ),
        className: 'text-end text-nowrap',
      },
      {
        id: 'provider',
        header: 'Способ',
        cell: (p) => PAYMENT_PROVIDER_LABELS[p.provider],
        className: 'text-nowrap d-none d-lg-table-cell',
      },
      {
        id: 'credits_amount',
        header: 'Кредиты',
        cell: (p) => formatCredits(p.credits_amount),
        className: 'text-end text-nowrap d-none d-lg-table-cell',
      },
      { id: 'status', header: 'Статус', cell: (p) => <StatusBadge value={p.status} {...paymentStatusBadge} /> },
      { id: 'created_at', header: 'Создан', cell: (p) => formatDateTime(p.created_at) },
      actionsColumn((p) => [
        rowAction.view(() => setViewed(p.id)),
        p.status === 'succeeded' && rowAction.refund(() => setRefunding(p)),
      ]),
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
      <ConfirmDialog
        show={refunding !== null}
        title="Вернуть платёж"
        message={
          refunding && (
            <>
              Вернуть платёж <strong>{refunding.id}</strong> на{' '}
              <strong>
                {formatRoubles(refunding.amount)}
                {refunding.star_amount !== null && ` (${formatStars(refunding.star_amount)})`}
              </strong>
              ? Деньги вернутся {refunding.provider === 'telegram_stars' ? 'звёздами в Telegram' : 'на карту'}, а
              кредиты платежа ({formatCredits(refunding.credits_amount)}) будут списаны с баланса пользователя.
              <TextField
                controlId="refund-reason"
                label="Причина возврата"
                className="mt-3"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                error={reasonError}
                hint="Видна в журнале действий."
              />
            </>
          )
        }
        confirmLabel="Вернуть платёж"
        onConfirm={() => refunding && confirmRefund(refunding)}
        onCancel={closeRefund}
        pending={refund.isPending}
        error={refund.isError ? errorMessage(refund.error, 'Ошибка возврата платежа.') : null}
      />
    </>
  );
}
