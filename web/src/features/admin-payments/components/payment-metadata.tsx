import type { ReactNode } from 'react';

import { DetailList } from '@/components/ui/view-dialog';

/** What billing writes into a payment's metadata, in the admin's words (an unknown key is shown as it is). */
const LABELS: Record<string, string> = {
  payment_id: 'Номер платежа',
  user_id: 'ID пользователя',
  kind: 'Что оплачено',
  tariff_id: 'ID тарифа',
  telegram_id: 'Telegram ID',
  invoice_id: 'Счёт в звёздах',
  telegram_payment_charge_id: 'ID платежа Telegram',
  provider_payment_charge_id: 'ID платежа у провайдера',
};

const KINDS: Record<string, string> = { topup: 'Пополнение баланса', tariff: 'Тариф' };

function valueOf(key: string, raw: unknown): ReactNode {
  const value = typeof raw === 'string' ? raw : JSON.stringify(raw);
  if (key === 'kind') return KINDS[value] ?? value;
  return key.endsWith('_id') ? <code>{value}</code> : value;
}

/** A payment's metadata as labelled fields, not JSON (billing writes strings; anything else is shown as written). */
export function PaymentMetadata({ metadata }: { metadata: Record<string, unknown> }) {
  return (
    <DetailList
      className="payment-metadata"
      items={Object.entries(metadata).map(([key, value]) => ({
        label: LABELS[key] ?? key,
        value: valueOf(key, value),
      }))}
    />
  );
}
