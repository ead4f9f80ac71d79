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
 *   width="model"                                // docs/product.md, Limits widths: article | category | tag | list | model
 * >
 *   <Form.Group controlId="user-email">…</Form.Group>
 * </FormDialog>
 * ```
 * Footer: «Отмена» and the submit button (`submitLabel`, default «Сохранить») with a spinner while `saving`.
 * While saving the dialog cannot be closed. Browser validation is off (`noValidate`): the form checks its values with
 * the contract's schema (useContractForm) and shows the messages under the fields; `error` is the server's refusal.
 */
import type { FormEvent, ReactNode } from 'react';

import { BusyButton } from './busy-button';
import { DialogFrame, type DialogFrameProps } from './dialog-frame';

export interface FormDialogProps extends Omit<
  DialogFrameProps,
  'dismissLabel' | 'footerStart' | 'action' | 'busy' | 'onSubmit'
> {
  onSubmit: () => void;
  saving?: boolean;
  submitLabel?: ReactNode;
  submitDisabled?: boolean;
  /** Runs once the dialog has opened, e.g. to focus the first field. */
  onEntered?: () => void;
}

export function FormDialog({
  onSubmit,
  saving = false,
  submitLabel = 'Сохранить',
  submitDisabled = false,
  onEntered,
  ...frame
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
    <DialogFrame
      {...frame}
      busy={saving}
      onEntered={entered}
      onSubmit={submit}
      dismissLabel="Отмена"
      action={
        <BusyButton type="submit" variant="primary" busy={saving} disabled={submitDisabled}>
          {submitLabel}
        </BusyButton>
      }
    />
  );
}
