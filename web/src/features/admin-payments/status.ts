import { PAYMENT_STATUS_LABELS, type PaymentProvider, type PaymentStatus } from '@gpt/contracts';

import type { StatusBadgeProps } from '@/components/ui/status-badge';

/** docs/product.md, States: succeeded is completed, canceled and failed are errors, the others pending. */
export const paymentStatusBadge = {
  labels: PAYMENT_STATUS_LABELS,
  variants: { succeeded: 'success', canceled: 'danger', failed: 'danger' },
  defaultVariant: 'warning',
} as const satisfies Omit<StatusBadgeProps, 'value'>;

export const PAYMENT_STATUSES = Object.keys(PAYMENT_STATUS_LABELS) as PaymentStatus[];

/** The contracts' PAYMENT_PROVIDER_LABELS, kept here for the same reason. */
export const PAYMENT_PROVIDER_LABELS: Record<PaymentProvider, string> = {
  yookassa: 'Картой',
  telegram_stars: 'Звёздами',
};
export const PAYMENT_PROVIDERS = Object.keys(PAYMENT_PROVIDER_LABELS) as PaymentProvider[];
