import { PasswordResetRequest } from '@gpt/contracts';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router-dom';

import { BusyButton } from '@/components/ui/busy-button';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useContractForm } from '@/lib/contract-form';

import { useRequestPasswordReset } from '../api/request-password-reset';
import { AuthCard } from './auth-card';
import { EmailField } from './auth-fields';

/** /forgot-password: the e-mail to send a recovery link to (and to the bot, for a linked account). */
export function ForgotPasswordForm() {
  const request = useRequestPasswordReset();
  const form = useContractForm(PasswordResetRequest, { email: '' });
  const onSubmit = form.handleSubmit(({ email }) => request.mutate(email));

  return (
    <AuthCard
      title="Восстановление пароля"
      subtitle="Пришлём ссылку для смены пароля на email, а если аккаунт связан с Telegram — ещё и в бот"
      footer={
        <>
          Вспомнили пароль? <Link to={paths.login}>Войти</Link>
        </>
      }
    >
      {request.isSuccess ? (
        <Alert variant="success" className="mb-0" role="status">
          {request.data.message}
        </Alert>
      ) : (
        <Form noValidate onSubmit={onSubmit}>
          <EmailField controlId="forgot-email" className="mb-4" {...form.field('email')} />
          <BusyButton type="submit" variant="primary" size="lg" className="w-100" busy={request.isPending}>
            Отправить ссылку
          </BusyButton>
          {request.isError && (
            <Alert variant="danger" className="mt-3 mb-0" role="alert">
              {errorMessage(request.error, 'Не удалось отправить ссылку. Попробуйте ещё раз.')}
            </Alert>
          )}
        </Form>
      )}
    </AuthCard>
  );
}
