import { RegisterForm as RegisterFormSchema } from '@gpt/contracts';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router-dom';

import { paths, withLinkToken } from '@/config/paths';
import { readReferralCode, readUtmSource } from '@/lib/attribution';
import { useContractForm } from '@/lib/contract-form';
import { sessionMessages, useRegister } from '@/lib/session/session';

import { useSignedInRedirect } from '../use-signed-in-redirect';
import { AuthCard } from './auth-card';
import { AuthFailure, EmailField, LinkNotice, PasswordField } from './auth-fields';
import { SubmitButton } from './submit-button';

/** E-mail, password twice and the agreement; same redirect rule as the login form. */
export function RegisterForm({ linkToken }: { linkToken: string | null }) {
  const register = useRegister();
  const signedIn = useSignedInRedirect(linkToken);
  const form = useContractForm(RegisterFormSchema, {
    email: '',
    password: '',
    confirmPassword: '',
    agreement: false,
  });
  const agreementError = form.message('agreement');
  const onSubmit = form.handleSubmit(({ email, password }) =>
    register.mutate(
      { email, password, utm_source: readUtmSource(), ref: readReferralCode() },
      // docs/product.md, Errors only logs a registration failure; we also show why (e.g. the e-mail is taken).
      { onSuccess: signedIn, onError: (err) => console.error('Registration failed', err) },
    ),
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
            <Form.Check.Input type="checkbox" isInvalid={Boolean(agreementError)} {...form.register('agreement')} />
            <Form.Check.Label>
              Я принимаю условия <Link to={paths.offer}>публичной оферты</Link> и даю{' '}
              <Link to={paths.privacy}>согласие на обработку персональных данных</Link>
            </Form.Check.Label>
            <Form.Control.Feedback type="invalid">{agreementError}</Form.Control.Feedback>
          </Form.Check>
        </Form.Group>
        <SubmitButton busy={register.isPending}>Зарегистрироваться</SubmitButton>
        <AuthFailure error={register.error} fallback={sessionMessages.register} />
      </Form>
    </AuthCard>
  );
}
