import {
  fieldErrors,
  type FormValues,
  LoginRequest,
  PasswordResetRequest,
  RegisterForm,
  ResetPasswordForm,
} from '@gpt/contracts';

/** Form rules of docs/product.md, Validation with their exact texts, from the contracts' schemas. Each returns the first error per field. */

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export type LoginValues = FormValues<typeof LoginRequest>;
export const validateLogin = (values: LoginValues) => fieldErrors(LoginRequest, values);

export type RegisterValues = FormValues<typeof RegisterForm>;
export const validateRegister = (values: RegisterValues) => fieldErrors(RegisterForm, values);

export type ForgotPasswordValues = FormValues<typeof PasswordResetRequest>;
export const validateForgotPassword = (values: ForgotPasswordValues) => fieldErrors(PasswordResetRequest, values);

export type ResetPasswordValues = FormValues<typeof ResetPasswordForm>;
export const validateResetPassword = (values: ResetPasswordValues) => fieldErrors(ResetPasswordForm, values);

export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}
