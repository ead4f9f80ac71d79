import {
  ADMIN_SUBSCRIPTIONS_SORT_FIELDS,
  SUBSCRIPTION_METHOD_LABELS,
  SUBSCRIPTION_STATUS_LABELS,
  declineReasonText,
  type AdminSubscription,
  type SubscriptionMethod,
  type SubscriptionStatus,
} from '@gpt/contracts';
import { useMemo, useState } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { actionsColumn, DataTable, type DataColumn } from '@/components/ui/data-table';
import { ChoiceFilter, FiltersCard, ResetFiltersButton } from '@/components/ui/list-filters';
import { PersonName } from '@/components/ui/person-name';
import { StatusBadge } from '@/components/ui/status-badge';
import { useToast } from '@/components/ui/toasts';
import { useActionKey } from '@/lib/action-key';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { toApiListQuery } from '@/lib/list-params';
import { formatRoubles, formatStars } from '@/lib/money';
import { useListState } from '@/lib/use-list-state';

import { useAdminSubscriptions, useSubscriptionAction, type SubscriptionAction } from '../api/admin-subscriptions';

const LIST_DEFAULTS = {
  sort: { field: 'created_at', order: 'desc' as const },
  filters: { status: '', method: '' },
  sortFields: ADMIN_SUBSCRIPTIONS_SORT_FIELDS,
};

const statusBadge = {
  labels: SUBSCRIPTION_STATUS_LABELS,
  variants: { active: 'success', past_due: 'warning', canceled: 'secondary', ended: 'secondary' },
} as const;
const STATUSES = Object.keys(SUBSCRIPTION_STATUS_LABELS) as SubscriptionStatus[];
const METHODS = Object.keys(SUBSCRIPTION_METHOD_LABELS) as SubscriptionMethod[];

const renewing = (s: AdminSubscription) => s.status === 'active' || s.status === 'past_due';

/** What each confirmation says and does. */
const ACTIONS = {
  renew: { title: 'Продлить сейчас', confirm: 'Списать и продлить', done: 'Подписка продлена' },
  cancel: { title: 'Отменить автопродление', confirm: 'Отменить автопродление', done: 'Автопродление отменено' },
} as const;

/**
 * «Подписки» (docs/money.md, Subscriptions): every subscription with its way of paying, status, paid end, next
 * charge and last decline; «Продлить сейчас» charges the saved card's next month now (the same charge the job would
 * make, once), «Отменить» stops every later charge (a Stars subscription at Telegram too). Both ask for a reason and
 * carry an Idempotency-Key.
 */
export function AdminSubscriptionsScreen() {
  const list = useListState(LIST_DEFAULTS);
  const subscriptions = useAdminSubscriptions(toApiListQuery(list.state));
  const [acting, setActing] = useState<Omit<SubscriptionAction, 'reason'> & { subscription: AdminSubscription }>();
  const [reason, setReason] = useState('');
  const run = useSubscriptionAction(useActionKey(acting !== undefined));
  const toast = useToast();
  const close = () => {
    setActing(undefined);
    setReason('');
    run.reset();
  };

  const columns = useMemo<DataColumn<AdminSubscription>[]>(
    () => [
      { id: 'id', header: 'ID', cell: (s) => s.id, width: 60 },
      {
        id: 'user',
        header: 'Пользователь',
        sortable: false,
        className: 'data-table-person',
        cell: (s) => (
          <>
            <div className="text-break">
              <PersonName person={s} fallback={`ID ${s.user_id}`} />
            </div>
            <div className="small text-body-secondary">ID {s.user_id}</div>
          </>
        ),
      },
      {
        id: 'price',
        header: 'Тариф',
        cell: (s) => (
          <>
            <div>{s.tariff_name}</div>
            <div className="small text-body-secondary text-nowrap">
              {s.method === 'telegram_stars' ? formatStars(s.star_price ?? 0) : formatRoubles(s.price)} в месяц
            </div>
            <div className="small text-body-secondary text-nowrap">
              {SUBSCRIPTION_METHOD_LABELS[s.method]}
              {s.card && ` ${s.card}`}
            </div>
          </>
        ),
      },
      {
        id: 'status',
        header: 'Статус',
        cell: (s) => (
          <>
            <StatusBadge value={s.status} {...statusBadge} />
            {s.last_failure && (
              <div className="small text-body-secondary" data-testid="last-failure">
                Отказ {formatDate(s.last_failure_at)}: {declineReasonText(s.last_failure)}
              </div>
            )}
          </>
        ),
      },
      {
        id: 'paid_until',
        header: 'Оплачено до',
        className: 'text-nowrap',
        cell: (s) => (
          <>
            <div>{formatDate(s.paid_until)}</div>
            {s.next_charge_at && (
              <div className="small text-body-secondary">списание {formatDate(s.next_charge_at)}</div>
            )}
          </>
        ),
      },
      actionsColumn((s) => [
        renewing(s) &&
          s.method === 'card' && {
            label: 'Продлить сейчас',
            icon: 'undo',
            onClick: () => setActing({ id: s.id, action: 'renew', subscription: s }),
          },
        renewing(s) && {
          label: 'Отменить',
          icon: 'cross',
          variant: 'danger',
          onClick: () => setActing({ id: s.id, action: 'cancel', subscription: s }),
        },
      ]),
    ],
    [],
  );

  const texts = acting ? ACTIONS[acting.action] : undefined;
  return (
    <>
      <FiltersCard>
        <ChoiceFilter
          idPrefix="subscriptions-filter"
          id="status"
          label="Статус"
          width={4}
          value={list.state.filters.status}
          labels={SUBSCRIPTION_STATUS_LABELS}
          options={STATUSES}
          onChange={(status) => list.setFilters({ status }, { replace: true })}
        />
        <ChoiceFilter
          idPrefix="subscriptions-filter"
          id="method"
          label="Способ оплаты"
          width={4}
          value={list.state.filters.method}
          labels={SUBSCRIPTION_METHOD_LABELS}
          options={METHODS}
          onChange={(method) => list.setFilters({ method }, { replace: true })}
        />
        <Col xs={12} md={2}>
          <ResetFiltersButton onReset={list.resetFilters} />
        </Col>
      </FiltersCard>
      <DataTable
        {...list.table}
        columns={columns}
        rows={subscriptions.data?.subscriptions}
        rowCount={subscriptions.data?.total ?? 0}
        getRowId={(s) => s.id}
        loading={subscriptions.isFetching}
        emptyText="Подписок нет"
        label="Подписки"
      />
      <ConfirmDialog
        show={acting !== undefined}
        title={texts?.title}
        confirmLabel={texts?.confirm}
        confirmVariant={acting?.action === 'renew' ? 'primary' : 'danger'}
        pending={run.isPending}
        error={run.isError ? errorMessage(run.error, 'Не удалось выполнить действие. Попробуйте позже.') : undefined}
        onCancel={close}
        onConfirm={() =>
          acting &&
          run.mutate(
            { id: acting.id, action: acting.action, reason },
            {
              onSuccess: (after) => {
                toast.success(texts!.done, `Подписка ${after.id} оплачена до ${formatDate(after.paid_until)}`);
                close();
              },
            },
          )
        }
        message={
          acting && (
            <>
              <p>
                {acting.action === 'renew'
                  ? `С карты ${acting.subscription.card ?? ''} будет списано ${formatRoubles(acting.subscription.price)} за следующий месяц тарифа «${acting.subscription.tariff_name}».`
                  : `Списаний больше не будет. Тариф «${acting.subscription.tariff_name}» действует до ${formatDate(acting.subscription.paid_until)}.`}
              </p>
              <Form.Group controlId="subscription-action-reason">
                <Form.Label>Причина</Form.Label>
                <Form.Control value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
              </Form.Group>
            </>
          )
        }
      />
    </>
  );
}
