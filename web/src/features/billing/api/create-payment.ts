import type { CreatePaymentResponse } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** A top-up in roubles ("350", "99.90") or a tariff to buy for one month. */
export type CreatePaymentBody = { amount: string } | { tariff_id: number };

/** POST /api/billing/payments → the payment and the provider's confirmation URL. */
export function createPayment(body: CreatePaymentBody): Promise<CreatePaymentResponse> {
  return api.post<CreatePaymentResponse>('/api/billing/payments', body);
}

/** On success the payer goes to the provider's page (or the sandbox page) to pay. */
export function useCreatePayment() {
  return useMutation({
    mutationFn: createPayment,
    onSuccess: (payment) => {
      if (payment.confirmation_url) window.location.assign(payment.confirmation_url);
    },
  });
}
