import { useId, type FormEvent, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal, { type ModalProps } from 'react-bootstrap/Modal';

import { dialogWidthClass, type DialogWidth } from './dialog-width';

export interface DialogFrameProps {
  show: boolean;
  onHide: () => void;
  title: ReactNode;
  children: ReactNode;
  /** The footer's button that closes the dialog (disabled while busy). */
  dismissLabel: string;
  /** Footer buttons before the dismiss button. */
  footerStart?: ReactNode;
  /** The main button, after the dismiss button. */
  action?: ReactNode;
  /** Shown in a red alert above the body. */
  error?: ReactNode;
  /** A request runs: the dialog cannot be closed. */
  busy?: boolean;
  width?: DialogWidth;
  size?: ModalProps['size'];
  dialogClassName?: string;
  onEntered?: () => void;
  /** Makes the whole dialog a `<form noValidate>`, so Enter in an input submits. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** Opened from another dialog: it and its backdrop sit above that one. */
  stacked?: boolean;
}

/**
 * The frame of the ConfirmDialog, FormDialog and ViewDialog: a centred Modal named by its title, the title as
 * an h2, the error above the body, and the footer: `footerStart`, the dismiss button, the `action`.
 */
export function DialogFrame({
  show,
  onHide,
  title,
  children,
  dismissLabel,
  footerStart,
  action,
  error,
  busy = false,
  width,
  size,
  dialogClassName,
  onEntered,
  onSubmit,
  stacked = false,
}: DialogFrameProps) {
  const titleId = useId();
  const content = (
    <>
      <Modal.Header closeButton={!busy} closeLabel="Закрыть">
        <Modal.Title as="h2" className="h5" id={titleId}>
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
        {footerStart}
        <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
          {dismissLabel}
        </Button>
        {action}
      </Modal.Footer>
    </>
  );
  return (
    <Modal
      show={show}
      onHide={() => !busy && onHide()}
      onEntered={onEntered}
      size={size}
      dialogClassName={dialogWidthClass(width, dialogClassName)}
      backdrop={busy ? 'static' : true}
      className={stacked ? 'modal-stacked' : undefined}
      backdropClassName={stacked ? 'modal-backdrop-stacked' : undefined}
      centered
      aria-labelledby={titleId}
    >
      {onSubmit ? (
        <Form
          noValidate
          onSubmit={(event) => {
            // The Modal sits in a portal, but React bubbles its events up the component tree: a dialog opened
            // from another dialog's form must not submit that form too.
            event.stopPropagation();
            onSubmit(event);
          }}
        >
          {content}
        </Form>
      ) : (
        content
      )}
    </Modal>
  );
}
