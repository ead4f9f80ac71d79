import type { PaymentStatus } from '@gpt/contracts';

import type { StatusBadgeProps } from '@/components/ui/status-badge';

/** docs/product.md, States labels (the contracts' PAYMENT_STATUS_LABELS; kept here so the admin chunk carries no zod). */
const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Ожидает оплаты',
  pending_email: 'Ожидает email',
  succeeded: 'Успешно',
  canceled: 'Отменен',
  failed: 'Ошибка',
};

/** docs/product.md, States: succeeded is completed, canceled and failed are errors, the others pending. */
export const paymentStatusBadge = {
  labels: PAYMENT_STATUS_LABELS,
  variants: { succeeded: 'success', canceled: 'danger', failed: 'danger' },
  defaultVariant: 'warning',
} as const satisfies Omit<StatusBadgeProps, 'value'>;

export const PAYMENT_STATUSES = Object.keys(PAYMENT_STATUS_LABELS) as PaymentStatus[];
