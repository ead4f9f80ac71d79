import Form from 'react-bootstrap/Form';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { useSessionActions } from '@/lib/session/use-session';

import { useAuthForm } from '../use-auth-form';
import { validateResetPassword, type ResetPasswordValues } from '../validation';
import { AuthCard } from './auth-card';
import { AuthFailure, PasswordField } from './auth-fields';
import { SubmitButton } from './submit-button';

/** /reset-password/{token}: a new password by a recovery link; success signs in and opens the personal account. */
export function ResetPasswordForm({ token }: { token: string }) {
  const { resetPassword } = useSessionActions();
  const form = useAuthForm<ResetPasswordValues>({ newPassword: '', confirmPassword: '' }, validateResetPassword, null);
  const onSubmit = form.submit(
    () => resetPassword({ token, newPassword: form.values.newPassword }),
    'Password reset failed',
  );

  return (
    <AuthCard
      title="Новый пароль"
      subtitle="После смены пароля все прежние входы на других устройствах завершатся"
      footer={
        <>
          Ссылка не работает? <Link to={paths.forgotPassword}>Запросить новую ссылку</Link>
        </>
      }
    >
      <Form noValidate onSubmit={onSubmit}>
        <PasswordField
          controlId="reset-new-password"
          label="Новый пароль"
          autoComplete="new-password"
          {...form.field('newPassword')}
        />
        <PasswordField
          controlId="reset-confirm-password"
          label="Подтвердите новый пароль"
          className="mb-4"
          autoComplete="new-password"
          {...form.field('confirmPassword')}
        />
        <SubmitButton>Сменить пароль</SubmitButton>
        <AuthFailure failed={form.failed} fallback="Не удалось сменить пароль" />
      </Form>
    </AuthCard>
  );
}
