import { PageHeader } from '@/components/ui/page-header';
import { SpinnerBlock } from '@/components/ui/spinner-block';
import { AccountOverview } from '@/features/account/components/account-overview';
import { BillingActions } from '@/features/billing/components/billing-actions';
import { PaymentHistory } from '@/features/billing/components/payment-history';
import { SubscriptionsBlock } from '@/features/billing/components/subscriptions-block';
import { useSession } from '@/lib/session/session';

import { PageContainer } from '../layouts/page-container';

export function DashboardPage() {
  const { user, error } = useSession();
  return (
    <PageContainer>
      <PageHeader title="Личный кабинет" lead={user?.email} />
      {user ? (
        <>
          <AccountOverview user={user} />
          <BillingActions />
          <SubscriptionsBlock />
          <PaymentHistory />
        </>
      ) : error ? (
        <div className="alert alert-danger" role="alert">
          {error}
        </div>
      ) : (
        <SpinnerBlock />
      )}
    </PageContainer>
  );
}
