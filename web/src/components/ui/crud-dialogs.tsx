/**
 * What the admin CRUD screens share: which row is viewed, edited or about to be deleted, the form's save and the
 * confirmed delete with their toasts, and the add button.
 *
 * ```tsx
 * const crud = useCrudDialogs<AiModel>();
 * const saving = useSaveRow(crud, useSaveModel(), {
 *   created: 'Модель добавлена', saved: 'Модель сохранена', nameOf: (m) => m.model, failed: 'Ошибка сохранения модели',
 * });
 * const deleting = useDeleteRow(crud, useDeleteModel(), {
 *   idOf: (m) => m.id, deleted: 'Модель удалена', nameOf: (m) => m.model, failed: 'Ошибка удаления модели',
 * });
 * <AddButton onClick={crud.create}>Добавить модель</AddButton>
 * <ModelFormDialog key={crud.formKey} model={crud.editedRow} {...saving.dialog} />
 * <ConfirmDialog {...deleting.dialog} title="Удаление модели" message={<>… «{crud.deleted?.model}»?</>} />
 * ```
 * A failed save or delete shows its message (the server's, else `failed`) in its dialog, or with
 * `failureIn: 'toast'` as an «Ошибка» toast.
 */
import { useState, type ReactNode } from 'react';
import Button, { type ButtonProps } from 'react-bootstrap/Button';

import { errorMessage } from '@/lib/api-client';

import { Icon } from './icons';
import { useToast } from './toasts';

/** A row of an admin table. */
interface Row {
  id: number | string;
}

export interface CrudDialogs<T extends Row> {
  viewed: T | null;
  view: (row: T) => void;
  closeView: () => void;
  /** The form is open: on `editedRow`, or on a new row when that is null. */
  formOpen: boolean;
  editedRow: T | null;
  /** The form's key, so that its fields start from the row. */
  formKey: string | number;
  create: () => void;
  edit: (row: T) => void;
  closeForm: () => void;
  deleted: T | null;
  askDelete: (row: T) => void;
  closeDelete: () => void;
}

/** The open dialogs of a screen; `view`, `edit` and `askDelete` keep their identity (for memoized columns). */
export function useCrudDialogs<T extends Row>(): CrudDialogs<T> {
  const [viewed, setViewed] = useState<T | null>(null);
  const [edited, setEdited] = useState<T | 'new' | null>(null);
  const [deleted, setDeleted] = useState<T | null>(null);
  return {
    viewed,
    view: setViewed,
    closeView: () => setViewed(null),
    formOpen: edited !== null,
    editedRow: edited === 'new' ? null : edited,
    formKey: edited === null ? 'closed' : edited === 'new' ? 'new' : edited.id,
    create: () => setEdited('new'),
    edit: setEdited,
    closeForm: () => setEdited(null),
    deleted,
    askDelete: setDeleted,
    closeDelete: () => setDeleted(null),
  };
}

/** The parts of a react-query mutation the dialogs use. */
interface Mutation<V, R> {
  mutate: (variables: V, options: { onSuccess: (result: R) => void; onError: (error: Error) => void }) => void;
  reset: () => void;
  isPending: boolean;
  error: Error | null;
}

interface Failure {
  /** Fallback of the failure message. */
  failed: string;
  /** Where a failure shows; default the dialog. */
  failureIn?: 'dialog' | 'toast';
}

function useFailure<V, R>(mutation: Mutation<V, R>, { failed, failureIn = 'dialog' }: Failure) {
  const toast = useToast();
  return {
    inDialog: failureIn === 'dialog' && mutation.error ? errorMessage(mutation.error, failed) : null,
    onError: (error: Error) => {
      if (failureIn === 'toast') toast.error('Ошибка', errorMessage(error, failed));
    },
  };
}

/**
 * The save of the create / edit form: `onSave(body)` creates (no id) or updates the edited row, then toasts
 * `created` or `saved` with the row's name and closes the form; closing clears a failed save.
 */
export function useSaveRow<T extends Row, B>(
  crud: CrudDialogs<T>,
  save: Mutation<B & { id?: T['id'] }, T>,
  texts: Failure & { created: string; saved: string; nameOf: (row: T) => string },
) {
  const toast = useToast();
  const failure = useFailure(save, texts);
  const close = () => {
    save.reset();
    crud.closeForm();
  };
  return {
    dialog: {
      show: crud.formOpen,
      saving: save.isPending,
      error: failure.inDialog,
      onHide: close,
      onSave: (body: B) => {
        const id = crud.editedRow?.id;
        save.mutate(
          { ...body, id },
          {
            onSuccess: (row) => {
              toast.success(id === undefined ? texts.created : texts.saved, texts.nameOf(row));
              close();
            },
            onError: failure.onError,
          },
        );
      },
    },
  };
}

/** The confirmed delete of `crud.deleted`: toasts `deleted` with the row's name and closes the confirmation. */
export function useDeleteRow<T extends Row, V>(
  crud: CrudDialogs<T>,
  remove: Mutation<V, unknown>,
  texts: Failure & { idOf: (row: T) => V; deleted: string; nameOf: (row: T) => string },
) {
  const toast = useToast();
  const failure = useFailure(remove, texts);
  const row = crud.deleted;
  return {
    dialog: {
      show: row !== null,
      pending: remove.isPending,
      error: failure.inDialog,
      onConfirm: () => {
        if (!row) return;
        remove.mutate(texts.idOf(row), {
          onSuccess: () => {
            toast.success(texts.deleted, texts.nameOf(row));
            crud.closeDelete();
          },
          onError: failure.onError,
        });
      },
      onCancel: () => {
        remove.reset();
        crud.closeDelete();
      },
    },
  };
}

/** The «add» button of a screen or a list: a plus and the label. */
export function AddButton({ children, ...props }: Omit<ButtonProps, 'variant'> & { children: ReactNode }) {
  return (
    <Button variant="primary" {...props}>
      <Icon name="plus" size={16} className="me-1" />
      {children}
    </Button>
  );
}
