import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router-dom';

import { BusyButton } from '@/components/ui/busy-button';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';

import { useRequestPasswordReset } from '../api/request-password-reset';
import { validateForgotPassword } from '../validation';
import { AuthCard } from './auth-card';
import { EmailField } from './auth-fields';

/** /forgot-password: the e-mail to send a recovery link to (and to the bot, for a linked account). */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const request = useRequestPasswordReset();
  const error = touched ? validateForgotPassword({ email }).email : undefined;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    if (validateForgotPassword({ email }).email) return;
    request.mutate(email.trim());
  }

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
          <EmailField
            controlId="forgot-email"
            className="mb-4"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            onBlur={() => setTouched(true)}
            error={error}
          />
          <BusyButton type="submit" variant="primary" size="lg" className="w-100" busy={request.isPending}>
            Отправить ссылку
          </BusyButton>
          {request.isError && (
            <Alert variant="danger" className="mt-3 mb-0" role="alert">
              {errorMessage(request.error, 'Не удалось отправить ссылку. Попробуйте ещё раз')}
            </Alert>
          )}
        </Form>
      )}
    </AuthCard>
  );
}
