import Form from 'react-bootstrap/Form';
import { Link } from 'react-router-dom';

import { paths, withLinkToken } from '@/config/paths';
import { useSessionActions } from '@/lib/session/use-session';
import { readUtmSource } from '@/lib/utm';

import { useAuthForm } from '../use-auth-form';
import { validateRegister, type RegisterValues } from '../validation';
import { AuthCard } from './auth-card';
import { AuthFailure, EmailField, LinkNotice, PasswordField } from './auth-fields';
import { SubmitButton } from './submit-button';

/** E-mail, password twice and the agreement; same redirect rule as the login form. */
export function RegisterForm({ linkToken }: { linkToken: string | null }) {
  const { register } = useSessionActions();
  const form = useAuthForm<RegisterValues>(
    { email: '', password: '', confirmPassword: '', agreement: false },
    validateRegister,
    linkToken,
  );
  const onSubmit = form.submit(
    () => register({ email: form.values.email.trim(), password: form.values.password, utm_source: readUtmSource() }),
    // docs/product.md, Errors only logs a registration failure; we also show why (e.g. the e-mail is taken).
    'Registration failed',
  );

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
      <LinkNotice linkToken={linkToken} step="регистрации" />
      <Form noValidate onSubmit={onSubmit}>
        <EmailField controlId="register-email" {...form.field('email')} />
        <PasswordField
          controlId="register-password"
          label="Пароль"
          autoComplete="new-password"
          {...form.field('password')}
        />
        <PasswordField
          controlId="register-confirm"
          label="Подтверждение пароля"
          autoComplete="new-password"
          {...form.field('confirmPassword')}
        />
        <Form.Group className="mb-4" controlId="register-agree">
          <Form.Check type="checkbox">
            <Form.Check.Input
              type="checkbox"
              checked={form.values.agreement}
              isInvalid={Boolean(form.shown('agreement'))}
              onChange={(e) => form.check('agreement', e.target.checked)}
            />
            <Form.Check.Label>
              Я принимаю условия <Link to={paths.offer}>публичной оферты</Link> и даю{' '}
              <Link to={paths.privacy}>согласие на обработку персональных данных</Link>
            </Form.Check.Label>
            <Form.Control.Feedback type="invalid">{form.shown('agreement')}</Form.Control.Feedback>
          </Form.Check>
        </Form.Group>
        <SubmitButton>Зарегистрироваться</SubmitButton>
        <AuthFailure failed={form.failed} fallback="Ошибка регистрации" />
      </Form>
    </AuthCard>
  );
}
