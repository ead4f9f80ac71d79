import type { StatusBadgeProps } from '@/components/ui/status-badge';

/** A history badge: success is green «Успешно», error red «Ошибка» (spec: named after the value). */
export const messageStatusBadge = {
  variants: { success: 'success', error: 'danger' },
  labels: { success: 'Успешно', error: 'Ошибка' },
} as const satisfies Omit<StatusBadgeProps, 'value'>;
