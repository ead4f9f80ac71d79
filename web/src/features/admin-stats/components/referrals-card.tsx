import { useReferralStats } from '../api/get-referral-stats';
import { formatCount } from '../format';
import { PeriodCard } from './stat-tiles';

/** Referrals this month: people invited, invited people who paid, bonus credits paid out (dashes until loaded). */
export function ReferralsCard() {
  const { data, isError } = useReferralStats();
  const s = isError ? undefined : data;
  return (
    <PeriodCard
      icon="gift"
      label="Рефералы за месяц"
      names={['Приглашены', 'Платят', 'Выплачено кредитов']}
      figures={[
        { stat: 'referralInvited', value: formatCount(s?.invited) },
        { stat: 'referralPaying', value: formatCount(s?.paying) },
        { stat: 'referralCredits', value: formatCount(s?.credits_paid) },
      ]}
    />
  );
}
