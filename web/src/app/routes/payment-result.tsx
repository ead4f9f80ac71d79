import { useSearchParams } from 'react-router-dom';

import { PageHeader } from '@/components/ui/page-header';
import { PaymentResult } from '@/features/billing/components/payment-result';

import { PageContainer } from '../layouts/page-container';

/** Where the payment provider sends the payer back: `?payment_id=`. */
export function PaymentResultPage() {
  const [params] = useSearchParams();
  return (
    <PageContainer narrow>
      <PageHeader title="Результат оплаты" />
      <PaymentResult paymentId={params.get('payment_id')} />
    </PageContainer>
  );
}
