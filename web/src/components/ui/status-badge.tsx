/**
 * A status as a coloured badge, colour and text looked up by value.
 *
 * ```tsx
 * const paymentStatus = {
 *   variants: { succeeded: 'success', canceled: 'danger', failed: 'danger' },
 *   labels: { pending: 'Ожидает оплаты', pending_email: 'Ожидает e-mail', succeeded: 'Успешно', canceled: 'Отменён', failed: 'Ошибка' },
 * } as const;
 * <StatusBadge value={payment.status} {...paymentStatus} defaultVariant="warning" />
 * <StatusBadge value={String(tariff.is_active)} variants={{ true: 'success' }} labels={{ true: 'Активен', false: 'Неактивен' }} />
 * ```
 * A value missing from `labels` is shown as it is.
 */
import Badge from 'react-bootstrap/Badge';

export type BadgeVariant = 'primary' | 'secondary' | 'success' | 'danger' | 'warning' | 'info' | 'light' | 'dark';

export interface StatusBadgeProps {
  value: string;
  variants?: Readonly<Partial<Record<string, BadgeVariant>>>;
  labels?: Readonly<Partial<Record<string, string>>>;
  /** Colour of a value not in `variants`; default secondary. */
  defaultVariant?: BadgeVariant;
  className?: string;
}

const darkText: ReadonlySet<BadgeVariant> = new Set(['warning', 'info', 'light']);

export function StatusBadge({ value, variants, labels, defaultVariant = 'secondary', className }: StatusBadgeProps) {
  const variant = variants?.[value] ?? defaultVariant;
  return (
    <Badge bg={variant} text={darkText.has(variant) ? 'dark' : undefined} className={`status-badge ${className ?? ''}`}>
      {labels?.[value] ?? value}
    </Badge>
  );
}
