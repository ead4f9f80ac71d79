import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';

import { BusyButton } from '@/components/ui/busy-button';
import { TextField } from '@/components/ui/form-field';
import { useToast } from '@/components/ui/toasts';
import { errorMessage } from '@/lib/api-client';
import { sessionMessages } from '@/lib/session/session-store';
import { useSession, useSessionActions } from '@/lib/session/use-session';

import { validatePasswordChange, type PasswordChangeValues } from '../validation';

const empty: PasswordChangeValues = { currentPassword: '', newPassword: '', confirmPassword: '' };
type Field = keyof PasswordChangeValues;

export function ChangePasswordDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  const toast = useToast();
  const { loading } = useSession();
  const { changePassword } = useSessionActions();
  const [values, setValues] = useState(empty);
  const [dirty, setDirty] = useState<Partial<Record<Field, boolean>>>({});
  const currentRef = useRef<HTMLInputElement>(null);
  const errors = validatePasswordChange(values);
  const shown = (field: Field) => (dirty[field] ? errors[field] : undefined);

  function close() {
    setValues(empty);
    setDirty({});
    onClose();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDirty({ currentPassword: true, newPassword: true, confirmPassword: true });
    if (Object.keys(errors).length > 0) {
      toast.error('Ошибка валидации', 'Пожалуйста, проверьте введенные данные');
      return;
    }
    try {
      await changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      toast.success('Успех', 'Пароль успешно изменен');
      close();
    } catch (err) {
      toast.error(
        'Ошибка',
        err instanceof Error && err.message === sessionMessages.noToken
          ? sessionMessages.noToken
          : errorMessage(err, sessionMessages.changePassword),
      );
    }
  }

  const bind = (field: Field) => ({
    type: 'password',
    value: values[field],
    error: shown(field),
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      setValues((v) => ({ ...v, [field]: e.target.value }));
      setDirty((d) => ({ ...d, [field]: true }));
    },
  });

  return (
    <Modal
      show={show}
      onHide={close}
      centered
      // Focus goes to the current password about 200 ms after opening (docs/product.md, States).
      onEntered={() => window.setTimeout(() => currentRef.current?.focus(), 200)}
    >
      <Form noValidate onSubmit={onSubmit}>
        <Modal.Header closeButton closeLabel="Закрыть">
          <Modal.Title>Смена пароля</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <TextField
            controlId="password-current"
            label="Текущий пароль"
            className="mb-3"
            ref={currentRef}
            autoComplete="current-password"
            {...bind('currentPassword')}
          />
          <TextField
            controlId="password-new"
            label="Новый пароль"
            className="mb-3"
            autoComplete="new-password"
            {...bind('newPassword')}
          />
          <TextField
            controlId="password-confirm"
            label="Подтверждение нового пароля"
            autoComplete="new-password"
            {...bind('confirmPassword')}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={close}>
            Отмена
          </Button>
          <BusyButton type="submit" variant="primary" busy={loading}>
            Сменить пароль
          </BusyButton>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
