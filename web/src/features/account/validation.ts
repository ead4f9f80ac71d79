import { ChangePasswordForm, fieldErrors, type FormValues } from '@gpt/contracts';

/** Change-password rules of docs/product.md, Validation with their exact texts, from the contracts' form schema (first error per field). */
export type PasswordChangeValues = FormValues<typeof ChangePasswordForm>;

export type PasswordChangeErrors = Partial<Record<keyof PasswordChangeValues, string>>;

export const validatePasswordChange = (values: PasswordChangeValues): PasswordChangeErrors =>
  fieldErrors(ChangePasswordForm, values);
