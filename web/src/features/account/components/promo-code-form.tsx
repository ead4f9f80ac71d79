import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

import { BusyButton } from '@/components/ui/busy-button';
import { errorMessage } from '@/lib/api-client';

import { useRedeemPromoCode } from '../api/redeem-promo-code';

/** «Промокод»: a code typed in, what it gave or why it was refused, in the server's words. */
export function PromoCodeForm() {
  const [code, setCode] = useState('');
  const redeem = useRedeemPromoCode();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (code.trim() === '') return;
    redeem.mutate(code.trim(), { onSuccess: () => setCode('') });
  }

  return (
    <Form noValidate onSubmit={onSubmit}>
      <Form.Label htmlFor="promo-code" className="visually-hidden">
        Промокод
      </Form.Label>
      <InputGroup>
        <Form.Control
          id="promo-code"
          placeholder="Введите промокод"
          value={code}
          maxLength={32}
          autoComplete="off"
          onChange={(event) => setCode(event.target.value)}
        />
        <BusyButton type="submit" busy={redeem.isPending} disabled={code.trim() === ''}>
          Активировать
        </BusyButton>
      </InputGroup>
      {redeem.isSuccess && (
        <Alert variant="success" className="mt-3 mb-0" data-testid="promo-result">
          {redeem.data.message}
        </Alert>
      )}
      {redeem.isError && (
        <Alert variant="danger" className="mt-3 mb-0" data-testid="promo-result">
          {errorMessage(redeem.error, 'Не удалось активировать промокод')}
        </Alert>
      )}
    </Form>
  );
}
