/**
 * Create / edit dialog: a real `<form>` inside a Modal, so Enter in an input submits.
 *
 * ```tsx
 * <FormDialog
 *   show={editing !== null}
 *   title="Редактировать пользователя"
 *   onHide={() => setEditing(null)}
 *   onSubmit={() => save.mutate(values)}        // the form's default action is already prevented
 *   saving={save.isPending}
 *   error={saveError}                            // shown in a red alert above the fields
 *   width="model"                                // spec §9 widths: article | category | tag | list | model
 * >
 *   <Form.Group controlId="user-email">…</Form.Group>
 * </FormDialog>
 * ```
 * Footer: «Отмена» and the submit button (`submitLabel`, default «Сохранить») with a spinner while `saving`.
 * While saving the dialog cannot be closed. Browser validation is off (`noValidate`): the screen checks the values
 * and shows the spec's messages through `error`.
 */
import type { FormEvent, ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal, { type ModalProps } from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';

import { dialogWidthClass, type DialogWidth } from './dialog-width';

export interface FormDialogProps {
  show: boolean;
  title: ReactNode;
  onHide: () => void;
  onSubmit: () => void;
  children: ReactNode;
  saving?: boolean;
  submitLabel?: ReactNode;
  submitDisabled?: boolean;
  error?: ReactNode;
  width?: DialogWidth;
  size?: ModalProps['size'];
  dialogClassName?: string;
  /** Runs once the dialog has opened, e.g. to focus the first field. */
  onEntered?: () => void;
}

export function FormDialog({
  show,
  title,
  onHide,
  onSubmit,
  children,
  saving = false,
  submitLabel = 'Сохранить',
  submitDisabled = false,
  error,
  width,
  size,
  dialogClassName,
  onEntered,
}: FormDialogProps) {
  // Focusing the first field once the dialog has appeared must not pull the caret out of a field
  // the person already started typing in.
  function entered() {
    const active = document.activeElement;
    if (active?.closest('.modal') && active.matches('input, textarea, select, [contenteditable="true"]')) return;
    onEntered?.();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!saving && !submitDisabled) onSubmit();
  }

  return (
    <Modal
      show={show}
      onHide={() => !saving && onHide()}
      onEntered={entered}
      size={size}
      dialogClassName={dialogWidthClass(width, dialogClassName)}
      backdrop={saving ? 'static' : true}
      centered
    >
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton={!saving} closeLabel="Закрыть">
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
          {children}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={saving}>
            Отмена
          </Button>
          <Button type="submit" variant="primary" disabled={saving || submitDisabled} aria-busy={saving}>
            {saving && <Spinner animation="border" size="sm" className="me-2" aria-hidden />}
            {submitLabel}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
