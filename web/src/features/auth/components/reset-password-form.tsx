import { ResetPasswordForm as ResetPasswordFormSchema } from '@gpt/contracts';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { useContractForm } from '@/lib/contract-form';
import { sessionMessages, useResetPassword } from '@/lib/session/session';

import { useSignedInRedirect } from '../use-signed-in-redirect';
import { AuthCard } from './auth-card';
import { AuthFailure, PasswordField } from './auth-fields';
import { SubmitButton } from './submit-button';

/** /reset-password/{token}: a new password by a recovery link; success signs in and opens the personal account. */
export function ResetPasswordForm({ token }: { token: string }) {
  const resetPassword = useResetPassword();
  const signedIn = useSignedInRedirect(null);
  const form = useContractForm(ResetPasswordFormSchema, { newPassword: '', confirmPassword: '' });
  const onSubmit = form.handleSubmit(({ newPassword }) =>
    resetPassword.mutate(
      { token, newPassword },
      { onSuccess: signedIn, onError: (err) => console.error('Password reset failed', err) },
    ),
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
        <SubmitButton busy={resetPassword.isPending}>Сменить пароль</SubmitButton>
        <AuthFailure error={resetPassword.error} fallback={sessionMessages.resetPassword} />
      </Form>
    </AuthCard>
  );
}
