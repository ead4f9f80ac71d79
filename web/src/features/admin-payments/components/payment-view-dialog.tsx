import { personName } from '@gpt/contracts';

import { StatusBadge } from '@/components/ui/status-badge';
import { DetailList, ViewDialog } from '@/components/ui/view-dialog';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { formatCredits, formatRoubles, formatStars } from '@/lib/money';

import { useAdminPayment } from '../api/get-admin-payment';
import { PAYMENT_PROVIDER_LABELS, paymentStatusBadge } from '../status';
import { PaymentMetadata } from './payment-metadata';

/** The payment's detail (docs/product.md, Screens): ids (ours and YooKassa's), user, amounts, status, times, metadata. */
export function PaymentViewDialog({ paymentId, onHide }: { paymentId: number | null; onHide: () => void }) {
  const payment = useAdminPayment(paymentId);
  const data = payment.data;
  return (
    <ViewDialog
      show={paymentId !== null}
      title="Информация о платеже"
      onHide={onHide}
      loading={payment.isPending && paymentId !== null}
      error={payment.isError ? errorMessage(payment.error, 'Ошибка загрузки платежа.') : null}
      width="model"
    >
      {data && (
        <DetailList
          items={[
            { label: 'ID', value: data.id },
            { label: 'Номер платежа', value: <code>{data.payment_id}</code> },
            { label: 'ID платежа ЮKassa', value: data.yookassa_payment_id && <code>{data.yookassa_payment_id}</code> },
            { label: 'Способ оплаты', value: PAYMENT_PROVIDER_LABELS[data.provider] },
            {
              label: 'ID платежа Telegram',
              value: data.telegram_payment_charge_id && <code>{data.telegram_payment_charge_id}</code>,
              hidden: !data.telegram_payment_charge_id,
            },
            { label: 'Звёзды', value: data.star_amount && formatStars(data.star_amount), hidden: !data.star_amount },
            {
              label: 'Пользователь',
              value: `${personName({ ...data, email: data.user_email }) || data.email || '—'} · ID ${data.user_id}`,
            },
            { label: 'E-mail', value: data.email },
            { label: 'Сумма', value: formatRoubles(data.amount) },
            { label: 'Кредиты', value: formatCredits(data.credits_amount) },
            { label: 'Статус', value: <StatusBadge value={data.status} {...paymentStatusBadge} /> },
            {
              label: 'Возврат',
              value: data.refunded_at && `${formatDateTime(data.refunded_at)} · ${data.refund_id ?? ''}`,
              hidden: !data.refunded_at,
            },
            { label: 'Причина отмены', value: data.cancellation_reason, hidden: !data.cancellation_reason },
            { label: 'Описание', value: data.description },
            { label: 'Создан', value: formatDateTime(data.created_at) },
            { label: 'Обновлён', value: formatDateTime(data.updated_at) },
            {
              label: 'Метаданные',
              value: data.metadata && <PaymentMetadata metadata={data.metadata} />,
              hidden: !data.metadata,
            },
          ]}
        />
      )}
    </ViewDialog>
  );
}
