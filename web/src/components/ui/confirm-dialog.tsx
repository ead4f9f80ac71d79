/**
 * Confirmation before a destructive action.
 *
 * ```tsx
 * <ConfirmDialog
 *   show={deleting !== null}
 *   title="Удаление пользователя"
 *   message={<>Вы действительно хотите удалить пользователя <strong>{deleting?.email}</strong>?</>}
 *   onConfirm={() => remove.mutate(deleting.id)}
 *   onCancel={() => setDeleting(null)}
 *   pending={remove.isPending}
 *   error={removeError}
 * />
 * ```
 * Buttons: «Отмена» and the confirm button (`confirmLabel`, default «Удалить», variant danger) with a spinner
 * while `pending`; the dialog cannot be closed while pending.
 */
import type { ReactNode } from 'react';
import type { ButtonProps } from 'react-bootstrap/Button';

import { BusyButton } from './busy-button';
import { DialogFrame } from './dialog-frame';

export interface ConfirmDialogProps {
  show: boolean;
  title: ReactNode;
  message: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
  confirmLabel?: ReactNode;
  confirmVariant?: ButtonProps['variant'];
  error?: ReactNode;
}

export function ConfirmDialog({
  show,
  title,
  message,
  onConfirm,
  onCancel,
  pending = false,
  confirmLabel = 'Удалить',
  confirmVariant = 'danger',
  error,
}: ConfirmDialogProps) {
  return (
    <DialogFrame
      show={show}
      onHide={onCancel}
      title={title}
      error={error}
      busy={pending}
      dismissLabel="Отмена"
      action={
        <BusyButton variant={confirmVariant} onClick={onConfirm} busy={pending}>
          {confirmLabel}
        </BusyButton>
      }
    >
      <div className="mb-0">{message}</div>
    </DialogFrame>
  );
}
