import { RedeemPromoRequest } from '@gpt/contracts';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

import { BusyButton } from '@/components/ui/busy-button';
import { errorMessage } from '@/lib/api-client';
import { useContractForm } from '@/lib/contract-form';

import { useRedeemPromoCode } from '../api/redeem-promo-code';

/** «Промокод»: a code typed in, what it gave or why it was refused, in the server's words. */
export function PromoCodeForm() {
  const redeem = useRedeemPromoCode();
  const form = useContractForm(RedeemPromoRequest, { code: '' }, 'onSubmit');
  const blank = form.watch('code').trim() === '';
  const problem = form.message('code');
  const onSubmit = form.handleSubmit(({ code }) => redeem.mutate(code, { onSuccess: () => form.reset() }));

  return (
    <Form noValidate onSubmit={onSubmit}>
      <Form.Label htmlFor="promo-code" className="visually-hidden">
        Промокод
      </Form.Label>
      <InputGroup hasValidation>
        <Form.Control
          id="promo-code"
          placeholder="Введите промокод"
          maxLength={32}
          autoComplete="off"
          isInvalid={Boolean(problem)}
          {...form.register('code')}
        />
        <BusyButton type="submit" busy={redeem.isPending} disabled={blank}>
          Активировать
        </BusyButton>
        <Form.Control.Feedback type="invalid">{problem}</Form.Control.Feedback>
      </InputGroup>
      {redeem.isSuccess && (
        <Alert variant="success" className="mt-3 mb-0" data-testid="promo-result">
          {redeem.data.message}
        </Alert>
      )}
      {redeem.isError && (
        <Alert variant="danger" className="mt-3 mb-0" data-testid="promo-result">
          {errorMessage(redeem.error, 'Не удалось активировать промокод.')}
        </Alert>
      )}
    </Form>
  );
}
