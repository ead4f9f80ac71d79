import { ChangePasswordForm } from '@gpt/contracts';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';

import { BusyButton } from '@/components/ui/busy-button';
import { TextField } from '@/components/ui/form-field';
import { useToast } from '@/components/ui/toasts';
import { errorMessage } from '@/lib/api-client';
import { useContractForm } from '@/lib/contract-form';
import { sessionMessages, useChangePassword } from '@/lib/session/session';

export function ChangePasswordDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  const toast = useToast();
  const changePassword = useChangePassword();
  const form = useContractForm(
    ChangePasswordForm,
    { currentPassword: '', newPassword: '', confirmPassword: '' },
    'onChange',
  );

  function close() {
    form.reset();
    onClose();
  }

  const onSubmit = form.handleSubmit(
    async ({ currentPassword, newPassword }) => {
      try {
        await changePassword.mutateAsync({ currentPassword, newPassword });
        toast.success('Пароль изменён', 'Теперь входите с новым паролем.');
        close();
      } catch (err) {
        toast.error(
          'Ошибка',
          err instanceof Error && err.message === sessionMessages.noToken
            ? sessionMessages.noToken
            : errorMessage(err, sessionMessages.changePassword),
        );
      }
    },
    () => toast.error('Ошибка валидации', 'Пожалуйста, проверьте введенные данные.'),
  );

  const field = (name: 'currentPassword' | 'newPassword' | 'confirmPassword') => ({
    type: 'password',
    ...form.field(name),
  });

  return (
    <Modal
      show={show}
      onHide={close}
      centered
      // Focus goes to the current password about 200 ms after opening (docs/product.md, States).
      onEntered={() => window.setTimeout(() => form.setFocus('currentPassword'), 200)}
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
            autoComplete="current-password"
            {...field('currentPassword')}
          />
          <TextField
            controlId="password-new"
            label="Новый пароль"
            className="mb-3"
            autoComplete="new-password"
            {...field('newPassword')}
          />
          <TextField
            controlId="password-confirm"
            label="Подтверждение нового пароля"
            autoComplete="new-password"
            {...field('confirmPassword')}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={close}>
            Отмена
          </Button>
          <BusyButton type="submit" variant="primary" busy={changePassword.isPending}>
            Сменить пароль
          </BusyButton>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
