import { apiPath } from '@gpt/contracts/openapi';
/**
 * What the sandbox payment page posts for a confirmation link: the decision route of its payment
 * and the body with the link's key (the proof that the caller is the payer).
 */
export function sandboxDecisionCall(confirmationUrl: string, decision: 'succeeded' | 'canceled') {
  const url = new URL(confirmationUrl);
  const id = decodeURIComponent(url.pathname.split('/').pop()!);
  return {
    id,
    path: apiPath('postBillingSandboxPaymentsByIdDecision', { id }),
    body: { decision, key: url.searchParams.get('key') ?? '' },
  };
}
