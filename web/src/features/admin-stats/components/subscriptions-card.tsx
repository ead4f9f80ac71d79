import { useSubscriptionStats } from '../api/get-subscription-stats';
import { formatCount, formatRub } from '../format';
import { PeriodCard } from './stat-tiles';

/** Renewing tariffs: how many renew now, the roubles a month they bring, and cancellations this month (dashes until loaded). */
export function SubscriptionsCard() {
  const { data, isError } = useSubscriptionStats();
  const s = isError ? undefined : data;
  return (
    <PeriodCard
      icon="clock"
      label="Подписки"
      names={['Активные', 'В месяц', 'Отменены за месяц']}
      figures={[
        { stat: 'subscriptionsActive', value: formatCount(s?.active) },
        { stat: 'subscriptionsMonthly', value: formatRub(s?.monthly_recurring_revenue) },
        { stat: 'subscriptionsCanceled', value: formatCount(s?.canceled_this_month) },
      ]}
    />
  );
}
