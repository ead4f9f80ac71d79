import { type CreatePaymentResponse, type CreatePaymentRequest, type RequestBody } from '@gpt/contracts';
import { useMutation } from '@tanstack/react-query';

import { callRoute } from '@/lib/api-client';

type Body = RequestBody<typeof CreatePaymentRequest>;

/**
 * A top-up in roubles ("350", "99.90") or a tariff to buy for one month: exactly one of the contract's fields; a
 * tariff may renew itself under the consent version shown.
 */
export type CreatePaymentBody =
  | { amount: NonNullable<Body['amount']> }
  | ({ tariff_id: NonNullable<Body['tariff_id']> } & Pick<Body, 'auto_renew' | 'consent_version'>);

/** POST /api/billing/payments → the payment and the provider's confirmation URL. */
export function createPayment(body: CreatePaymentBody): Promise<CreatePaymentResponse> {
  return callRoute('postBillingPayments', { body });
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
