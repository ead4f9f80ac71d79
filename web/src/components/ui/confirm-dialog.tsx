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
import Alert from 'react-bootstrap/Alert';
import Button, { type ButtonProps } from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';

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
    <Modal show={show} onHide={() => !pending && onCancel()} backdrop={pending ? 'static' : true} centered>
      <Modal.Header closeButton={!pending} closeLabel="Закрыть">
        <Modal.Title as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {error && (
          <Alert variant="danger" className="py-2">
            {error}
          </Alert>
        )}
        <div className="mb-0">{message}</div>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={pending}>
          Отмена
        </Button>
        <Button variant={confirmVariant} onClick={onConfirm} disabled={pending} aria-busy={pending}>
          {pending && <Spinner animation="border" size="sm" className="me-2" aria-hidden />}
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
