import type { StatusBadgeProps } from '@/components/ui/status-badge';

/** A history badge: success is green «Успешно», error red «Ошибка» (spec: named after the value; issue 15). */
export const messageStatusBadge = {
  variants: { success: 'success', error: 'danger' },
  labels: { success: 'Успешно', error: 'Ошибка' },
} as const satisfies Omit<StatusBadgeProps, 'value'>;

/** The username with the first and last name when present (spec §2). */
export function authorName(message: { username: string | null; first_name: string | null; last_name: string | null }) {
  const name = [message.first_name, message.last_name].filter(Boolean).join(' ');
  if (message.username && name) return `@${message.username} (${name})`;
  return message.username ? `@${message.username}` : name;
}
