/** Change-password rules of spec §5, with their exact texts (first error per field). */
export interface PasswordChangeValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export type PasswordChangeErrors = Partial<Record<keyof PasswordChangeValues, string>>;

export function validatePasswordChange(values: PasswordChangeValues): PasswordChangeErrors {
  const errors: PasswordChangeErrors = {};
  if (!values.currentPassword) errors.currentPassword = 'Введите текущий пароль';
  if (!values.newPassword) errors.newPassword = 'Введите новый пароль';
  else if (values.newPassword.length < 6) errors.newPassword = 'Пароль должен содержать минимум 6 символов';
  if (!values.confirmPassword) errors.confirmPassword = 'Подтвердите новый пароль';
  else if (values.confirmPassword !== values.newPassword) errors.confirmPassword = 'Пароли не совпадают';
  return errors;
}
