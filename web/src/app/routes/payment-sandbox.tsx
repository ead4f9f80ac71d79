import { useParams, useSearchParams } from 'react-router-dom';

import { PageHeader } from '@/components/ui/page-header';
import { SandboxCheckout } from '@/features/billing/components/sandbox-checkout';

import { PageContainer } from '../layouts/page-container';

/** The sandbox provider's confirmation page (the embedded default has no YooKassa keys). */
export function PaymentSandboxPage() {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  return (
    <PageContainer narrow>
      <PageHeader title="Подтверждение оплаты" />
      <SandboxCheckout id={id} paymentKey={search.get('key') ?? undefined} />
    </PageContainer>
  );
}
