import { useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router-dom';

import { paths, withLinkToken } from '@/config/paths';
import { useSession, useSessionActions } from '@/lib/session/use-session';

import { hasErrors, validateLogin, type LoginValues } from '../validation';
import { AuthCard } from './auth-card';
import { SubmitButton } from './submit-button';

/** E-mail + password; on success to /link/{token} when a link token came along, else /dashboard. */
export function LoginForm({ linkToken }: { linkToken: string | null }) {
  const navigate = useNavigate();
  const { loading, error } = useSession();
  const { login } = useSessionActions();
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof LoginValues, boolean>>>({});
  const [failed, setFailed] = useState(false);
  const errors = validateLogin(values);
  const shown = (field: keyof LoginValues) => (touched[field] ? errors[field] : undefined);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (hasErrors(errors)) return;
    setFailed(false);
    try {
      await login({ email: values.email.trim(), password: values.password });
      navigate(linkToken ? paths.link(linkToken) : paths.dashboard, { replace: true });
    } catch (err) {
      console.error('Login failed', err);
      setFailed(true);
    }
  }

  const field = (name: keyof LoginValues) => ({
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
    isInvalid: Boolean(shown(name)),
  });

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
      {linkToken && (
        <Alert variant="info" className="small">
          После входа аккаунт сайта будет связан с вашим Telegram-аккаунтом.
        </Alert>
      )}
      <Form noValidate onSubmit={onSubmit}>
        <Form.Group className="mb-3" controlId="login-email">
          <Form.Label>Email</Form.Label>
          <Form.Control type="email" autoComplete="email" placeholder="you@example.com" {...field('email')} />
          <Form.Control.Feedback type="invalid">{shown('email')}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-4" controlId="login-password">
          <Form.Label>Пароль</Form.Label>
          <Form.Control type="password" autoComplete="current-password" {...field('password')} />
          <Form.Control.Feedback type="invalid">{shown('password')}</Form.Control.Feedback>
        </Form.Group>
        <SubmitButton loading={loading}>Войти</SubmitButton>
        {failed && !loading && (
          <Alert variant="danger" className="mt-3 mb-0" role="alert">
            {error ?? 'Ошибка авторизации'}
          </Alert>
        )}
      </Form>
    </AuthCard>
  );
}
