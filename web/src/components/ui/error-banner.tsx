/**
 * The red banner each admin screen shows on a failure (docs/product.md, Screens and Errors). Renders nothing without a message.
 *
 * ```tsx
 * <ErrorBanner message={users.isError ? errorMessage(users.error, 'Ошибка загрузки пользователей.') : null} />
 * <ErrorBanner message={actionError} onClose={() => setActionError(null)} />
 * ```
 * With `onClose` the parent owns the message; without it the banner hides itself when dismissed and shows again
 * when a different message arrives.
 */
import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';

export interface ErrorBannerProps {
  message: ReactNode;
  onClose?: () => void;
  className?: string;
}

export function ErrorBanner({ message, onClose, className = 'mb-3' }: ErrorBannerProps) {
  const [dismissed, setDismissed] = useState<ReactNode>(null);
  if (message === null || message === undefined || message === false || message === '') return null;
  if (!onClose && dismissed === message) return null;
  return (
    <Alert
      variant="danger"
      dismissible
      closeLabel="Закрыть"
      onClose={() => (onClose ? onClose() : setDismissed(message))}
      className={className}
    >
      {message}
    </Alert>
  );
}
