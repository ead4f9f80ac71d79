import { useState } from 'react';
import Form from 'react-bootstrap/Form';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorMessage } from '@/lib/api-client';
import { formatCredits, formatRoubles } from '@/lib/money';

import { useCreatePayment } from '../api/create-payment';
import { useRenewalConsent } from '../api/subscriptions';

/** A tariff about to be bought (or extended) for one month. */
export interface TariffPurchase {
  id: number;
  name: string;
  /** Roubles per month, an exact decimal string. */
  monthlyPrice: string;
  includedCredits: number;
  creditsPerRuble: number;
  /** The user has this tariff running: buying extends it. */
  extending?: boolean;
}

const PAYMENT_FAILED = 'Не удалось создать платёж, попробуйте позже';

/**
 * «Купить» asks first: what is bought, its price and its credits. «Продлевать автоматически» is never ticked by
 * default; ticked, it shows the consent text billing renders (price, next charge, how to cancel) and the payment
 * saves the card under that consent's version (docs/money.md, Subscriptions). «Оплатить» creates the payment and
 * goes to the provider's page; «Отмена» does nothing.
 */
export function TariffPurchaseDialog({ tariff, onClose }: { tariff: TariffPurchase | null; onClose: () => void }) {
  const pay = useCreatePayment();
  const [autoRenew, setAutoRenew] = useState(false);
  const consent = useRenewalConsent(autoRenew && tariff ? tariff.id : null);
  const busy = pay.isPending || pay.isSuccess;
  const waitingForConsent = autoRenew && !consent.data;

  function close() {
    pay.reset();
    setAutoRenew(false);
    onClose();
  }

  function confirm() {
    if (!tariff) return;
    pay.mutate(
      autoRenew && consent.data
        ? { tariff_id: tariff.id, auto_renew: true, consent_version: consent.data.version }
        : { tariff_id: tariff.id },
    );
  }

  return (
    <ConfirmDialog
      show={tariff !== null}
      title={tariff?.extending ? 'Продление тарифа' : 'Покупка тарифа'}
      confirmLabel="Оплатить"
      confirmVariant="primary"
      pending={busy || waitingForConsent}
      error={
        pay.isError
          ? errorMessage(pay.error, PAYMENT_FAILED)
          : consent.isError
            ? errorMessage(consent.error, 'Не удалось загрузить условия автопродления. Попробуйте позже.')
            : undefined
      }
      onCancel={close}
      onConfirm={confirm}
      message={
        tariff && (
          <div data-testid="purchase-summary">
            <p>
              Тариф «{tariff.name}» на 1 месяц{tariff.extending ? ' — продлится после текущего срока' : ''}.
            </p>
            <dl className="info-list mb-0">
              <div className="info-item">
                <dt>К оплате</dt>
                <dd className="fw-semibold">{formatRoubles(tariff.monthlyPrice)}</dd>
              </div>
              <div className="info-item">
                <dt>Кредиты</dt>
                <dd>{formatCredits(tariff.includedCredits)} кредитов включено на месяц</dd>
              </div>
              <div className="info-item">
                <dt>Пополнение</dt>
                <dd>{formatCredits(tariff.creditsPerRuble)} кредитов за 1 ₽</dd>
              </div>
            </dl>
            <Form.Check
              className="mt-3"
              id="purchase-auto-renew"
              label="Продлевать автоматически"
              checked={autoRenew}
              onChange={(event) => setAutoRenew(event.currentTarget.checked)}
            />
            {autoRenew && consent.data && (
              <p className="small text-body-secondary mt-2 mb-0" data-testid="renewal-consent">
                {consent.data.text}
              </p>
            )}
          </div>
        )
      }
    />
  );
}
