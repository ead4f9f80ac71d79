/** Form rules of spec §5, with their exact texts. Each returns the first error per field. */

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 6;
export const EMAIL_MIN = 3;

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export interface LoginValues {
  email: string;
  password: string;
}

/** The login form's e-mail rule, also the recovery request's. */
function loginEmailError(value: string): string | undefined {
  const email = value.trim();
  if (!email) return 'Введите email';
  if (email.length < EMAIL_MIN) return 'Email должен быть не короче 3 символов';
  if (!EMAIL_PATTERN.test(email)) return 'Некорректный email';
  return undefined;
}

export function validateLogin(values: LoginValues): FieldErrors<keyof LoginValues> {
  const errors: FieldErrors<keyof LoginValues> = {};
  const emailError = loginEmailError(values.email);
  if (emailError) errors.email = emailError;
  if (!values.password) errors.password = 'Пароль обязателен для заполнения';
  else if (values.password.length < PASSWORD_MIN) errors.password = 'Пароль должен быть не менее 6 символов';
  return errors;
}

export interface RegisterValues {
  email: string;
  password: string;
  confirmPassword: string;
  agree: boolean;
}

export function validateRegister(values: RegisterValues): FieldErrors<keyof RegisterValues> {
  const errors: FieldErrors<keyof RegisterValues> = {};
  const email = values.email.trim();
  if (!email) errors.email = 'Email обязателен для заполнения';
  else if (!EMAIL_PATTERN.test(email)) errors.email = 'Некорректный email';
  if (!values.password) errors.password = 'Пароль обязателен для заполнения';
  else if (values.password.length < PASSWORD_MIN) errors.password = 'Пароль должен быть не менее 6 символов';
  if (!values.confirmPassword) errors.confirmPassword = 'Подтвердите пароль';
  else if (values.confirmPassword !== values.password) errors.confirmPassword = 'Пароли не совпадают';
  if (!values.agree) errors.agree = 'Необходимо согласиться с условиями';
  return errors;
}

export interface ForgotPasswordValues {
  email: string;
}

export function validateForgotPassword(values: ForgotPasswordValues): FieldErrors<keyof ForgotPasswordValues> {
  const email = loginEmailError(values.email);
  return email ? { email } : {};
}

export interface ResetPasswordValues {
  newPassword: string;
  confirmPassword: string;
}

/** The new password of a recovery link: the change-password dialog's rules and texts (spec §5). */
export function validateResetPassword(values: ResetPasswordValues): FieldErrors<keyof ResetPasswordValues> {
  const errors: FieldErrors<keyof ResetPasswordValues> = {};
  if (!values.newPassword) errors.newPassword = 'Введите новый пароль';
  else if (values.newPassword.length < PASSWORD_MIN) errors.newPassword = 'Пароль должен содержать минимум 6 символов';
  if (!values.confirmPassword) errors.confirmPassword = 'Подтвердите новый пароль';
  else if (values.confirmPassword !== values.newPassword) errors.confirmPassword = 'Пароли не совпадают';
  return errors;
}

export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}
