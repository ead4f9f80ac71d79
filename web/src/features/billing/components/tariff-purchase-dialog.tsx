import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorMessage } from '@/lib/api-client';
import { formatCredits, formatRoubles } from '@/lib/money';

import { useCreatePayment } from '../api/create-payment';

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
 * «Купить» asks first: what is bought, its price and its credits. «Оплатить» creates the payment and
 * goes to the provider's page; «Отмена» does nothing.
 */
export function TariffPurchaseDialog({ tariff, onClose }: { tariff: TariffPurchase | null; onClose: () => void }) {
  const pay = useCreatePayment();
  const busy = pay.isPending || pay.isSuccess;

  function close() {
    pay.reset();
    onClose();
  }

  return (
    <ConfirmDialog
      show={tariff !== null}
      title={tariff?.extending ? 'Продление тарифа' : 'Покупка тарифа'}
      confirmLabel="Оплатить"
      confirmVariant="primary"
      pending={busy}
      error={pay.isError ? errorMessage(pay.error, PAYMENT_FAILED) : undefined}
      onCancel={close}
      onConfirm={() => tariff && pay.mutate({ tariff_id: tariff.id })}
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
          </div>
        )
      }
    />
  );
}
