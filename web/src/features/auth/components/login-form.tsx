import { LoginRequest } from '@gpt/contracts';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router-dom';

import { paths, withLinkToken } from '@/config/paths';
import { useContractForm } from '@/lib/contract-form';
import { sessionMessages, useLogin, useSession } from '@/lib/session/session';

import { useSignedInRedirect } from '../use-signed-in-redirect';
import { AuthCard } from './auth-card';
import { AuthFailure, EmailField, LinkNotice, PasswordField } from './auth-fields';
import { SubmitButton } from './submit-button';
import { TelegramLoginButton } from './telegram-login-button';

/** E-mail + password; on success to /link/{token} when a link token came along, else /dashboard. */
export function LoginForm({ linkToken }: { linkToken: string | null }) {
  const { endedBecause } = useSession();
  const login = useLogin();
  const signedIn = useSignedInRedirect(linkToken);
  const form = useContractForm(LoginRequest, { email: '', password: '' });
  const onSubmit = form.handleSubmit((body) =>
    login.mutate(body, { onSuccess: signedIn, onError: (err) => console.error('Login failed', err) }),
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
      {endedBecause && !login.isError && <Alert variant="warning">{endedBecause}</Alert>}
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
        <SubmitButton busy={login.isPending}>Войти</SubmitButton>
        <AuthFailure error={login.error} fallback={sessionMessages.login} />
      </Form>
      <TelegramLoginButton onSignedIn={signedIn} />
    </AuthCard>
  );
}
