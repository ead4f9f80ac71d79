import { SUBSCRIPTION_STATUS_LABELS, declineReasonText, type UserSubscription } from '@gpt/contracts';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { StatusBadge } from '@/components/ui/status-badge';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/dates';
import { formatRoubles, formatStars } from '@/lib/money';

import { useCancelSubscription, useSubscriptions } from '../api/subscriptions';

const statusBadge = {
  labels: SUBSCRIPTION_STATUS_LABELS,
  variants: { active: 'success', past_due: 'warning', canceled: 'secondary', ended: 'secondary' },
} as const;

/** What the user is about to do to a subscription. */
type Pending = { subscription: UserSubscription; card: boolean };

function SubscriptionRow({ subscription, onAct }: { subscription: UserSubscription; onAct: (card: boolean) => void }) {
  const renewing = subscription.status === 'active' || subscription.status === 'past_due';
  const stars = subscription.method === 'telegram_stars';
  return (
    <li className="list-group-item py-3" data-testid="subscription-row">
      <div className="d-flex flex-wrap justify-content-between gap-2">
        <div>
          <div className="fw-medium">Тариф «{subscription.tariff_name}»</div>
          <div className="small text-body-secondary">
            {stars
              ? `${formatStars(subscription.star_price ?? 0)} в месяц, в Telegram`
              : `${formatRoubles(subscription.price)} в месяц`}
            {subscription.card && <>, карта {subscription.card}</>}
          </div>
        </div>
        <div className="ms-auto text-end">
          <StatusBadge value={subscription.status} {...statusBadge} />
        </div>
      </div>
      <dl className="info-list small mt-2 mb-0">
        <div className="info-item">
          <dt>Оплачено до</dt>
          <dd>{formatDate(subscription.paid_until)}</dd>
        </div>
        {subscription.next_charge_at && (
          <div className="info-item">
            <dt>{subscription.status === 'past_due' ? 'Повторное списание' : 'Следующее списание'}</dt>
            <dd>{formatDate(subscription.next_charge_at)}</dd>
          </div>
        )}
      </dl>
      {subscription.status === 'past_due' && (
        <Alert variant="warning" className="small mt-2 mb-0">
          Списание не прошло: {declineReasonText(subscription.last_failure)}. Тариф действует до{' '}
          {formatDate(subscription.grace_until)}, пока мы пробуем снова.
        </Alert>
      )}
      {subscription.needs_new_card && (
        <Alert variant="danger" className="small mt-2 mb-0">
          Карту больше нельзя списать: {declineReasonText(subscription.last_failure)}. Чтобы продлить тариф, оплатите
          его другой картой.
        </Alert>
      )}
      {(renewing || subscription.card) && (
        <div className="d-flex flex-wrap gap-2 mt-2">
          {renewing && (
            <Button variant="outline-danger" size="sm" onClick={() => onAct(false)}>
              Отменить автопродление
            </Button>
          )}
          {subscription.card && (
            <Button variant="outline-secondary" size="sm" onClick={() => onAct(true)}>
              Удалить карту
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * «Автопродление» of the personal account (docs/money.md, Subscriptions): each renewing tariff with its price, card,
 * paid end and next charge; «Отменить автопродление» and «Удалить карту» each ask once and stop every later charge.
 * Shown when the user has any subscription.
 */
export function SubscriptionsBlock() {
  const { data, isError, refetch } = useSubscriptions();
  const cancel = useCancelSubscription();
  const [pending, setPending] = useState<Pending | null>(null);

  function close() {
    cancel.reset();
    setPending(null);
  }

  if (isError) {
    return (
      <Alert variant="danger" className="mt-4 d-flex flex-wrap align-items-center gap-3">
        <span className="me-auto">Не удалось загрузить автопродление.</span>
        <Button variant="outline-danger" size="sm" onClick={() => void refetch()}>
          Повторить
        </Button>
      </Alert>
    );
  }
  if (!data || data.subscriptions.length === 0) return null;
  const tariff = pending?.subscription.tariff_name;
  return (
    <section className="mt-4" aria-labelledby="subscriptions-title">
      <h2 id="subscriptions-title" className="h5 mb-3">
        Автопродление
      </h2>
      <Card>
        <ul className="list-group list-group-flush" data-testid="subscriptions">
          {data.subscriptions.map((subscription) => (
            <SubscriptionRow
              key={subscription.id}
              subscription={subscription}
              onAct={(card) => setPending({ subscription, card })}
            />
          ))}
        </ul>
      </Card>
      <ConfirmDialog
        show={pending !== null}
        title={pending?.card ? 'Удалить карту' : 'Отменить автопродление'}
        confirmLabel={pending?.card ? 'Удалить карту' : 'Отменить автопродление'}
        pending={cancel.isPending}
        error={
          cancel.isError
            ? errorMessage(cancel.error, 'Не удалось отменить автопродление. Попробуйте позже.')
            : undefined
        }
        onCancel={close}
        onConfirm={() =>
          pending && cancel.mutate({ id: pending.subscription.id, card: pending.card }, { onSuccess: close })
        }
        message={
          pending &&
          (pending.card
            ? `Данные карты ${pending.subscription.card ?? ''} будут удалены, списаний с неё больше не будет. Тариф «${tariff}» действует до ${formatDate(pending.subscription.paid_until)}.`
            : `Списаний больше не будет. Тариф «${tariff}» действует до ${formatDate(pending.subscription.paid_until)}.`)
        }
      />
    </section>
  );
}
