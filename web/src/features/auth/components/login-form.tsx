import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router-dom';

import { paths, withLinkToken } from '@/config/paths';
import { useSession, useSessionActions } from '@/lib/session/use-session';

import { useAuthForm } from '../use-auth-form';
import { validateLogin, type LoginValues } from '../validation';
import { AuthCard } from './auth-card';
import { AuthFailure, EmailField, LinkNotice, PasswordField } from './auth-fields';
import { SubmitButton } from './submit-button';

/** E-mail + password; on success to /link/{token} when a link token came along, else /dashboard. */
export function LoginForm({ linkToken }: { linkToken: string | null }) {
  const { endedBecause } = useSession();
  const { login } = useSessionActions();
  const form = useAuthForm<LoginValues>({ email: '', password: '' }, validateLogin, linkToken);
  const onSubmit = form.submit(
    () => login({ email: form.values.email.trim(), password: form.values.password }),
    'Login failed',
  );

  return (
    <AuthCard
      title="Вход"
      subtitle="Войдите, чтобы управлять балансом и тарифом"
      footer={
        <>
          Нет аккаунта? <Link to={withLinkToken(paths.register, linkToken)}>Зарегистрироваться</Link>
        </>
      }
    >
      {endedBecause && !form.failed && <Alert variant="warning">{endedBecause}</Alert>}
      <LinkNotice linkToken={linkToken} step="входа" />
      <Form noValidate onSubmit={onSubmit}>
        <EmailField controlId="login-email" {...form.field('email')} />
        <PasswordField
          controlId="login-password"
          label="Пароль"
          className="mb-2"
          autoComplete="current-password"
          {...form.field('password')}
        />
        <div className="text-end mb-4">
          <Link to={paths.forgotPassword} className="small">
            Забыли пароль?
          </Link>
        </div>
        <SubmitButton>Войти</SubmitButton>
        <AuthFailure failed={form.failed} fallback="Ошибка авторизации" />
      </Form>
    </AuthCard>
  );
}
