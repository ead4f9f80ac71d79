import { describe, expect, test } from '@jest/globals';
import type { z } from 'zod';
import {
  AdminUserUpdateRequest,
  ChangePasswordForm,
  ChangePasswordRequest,
  fieldErrors,
  LoginRequest,
  RegisterForm,
  RegisterRequest,
  ResetPasswordForm,
} from '../src/index';

/** The messages of a failed parse, by field path. */
function messages(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const byPath: Record<string, string[]> = {};
  for (const issue of result.error.issues) (byPath[issue.path.join('.')] ??= []).push(issue.message);
  return byPath;
}

describe('LoginRequest', () => {
  test('when the email is missing or blank, then the only message is "Введите email"', () => {
    expect(messages(LoginRequest, { password: 'secret1' }).email).toEqual(['Введите email']);
    expect(messages(LoginRequest, { email: '   ', password: 'secret1' }).email).toEqual(['Введите email']);
  });

  test('when the email is shorter than 3 characters, then the spec length message comes first and alone', () => {
    expect(messages(LoginRequest, { email: 'a@', password: 'secret1' }).email).toEqual([
      'Email должен быть не короче 3 символов',
    ]);
  });

  test('when the email is malformed, then "Некорректный email"', () => {
    expect(messages(LoginRequest, { email: 'user.example.com', password: 'secret1' }).email).toEqual([
      'Некорректный email',
    ]);
  });

  test('when the password is missing or short, then the spec password messages', () => {
    expect(messages(LoginRequest, { email: 'user@example.com' }).password).toEqual([
      'Пароль обязателен для заполнения',
    ]);
    expect(messages(LoginRequest, { email: 'user@example.com', password: '' }).password).toEqual([
      'Пароль обязателен для заполнения',
    ]);
    expect(messages(LoginRequest, { email: 'user@example.com', password: '12345' }).password).toEqual([
      'Пароль должен быть не менее 6 символов',
    ]);
  });

  test('when the input is valid, then the email is trimmed and lower-cased', () => {
    expect(LoginRequest.parse({ email: '  User@Example.COM ', password: 'secret1' })).toEqual({
      email: 'user@example.com',
      password: 'secret1',
    });
  });
});

describe('RegisterRequest', () => {
  test('when the email is missing, then "Email обязателен для заполнения"', () => {
    expect(messages(RegisterRequest, { password: 'secret1' }).email).toEqual(['Email обязателен для заполнения']);
  });

  test('when the email is invalid or the password short, then the spec texts', () => {
    const problems = messages(RegisterRequest, { email: 'nope@', password: '123' });
    expect(problems.email).toEqual(['Некорректный email']);
    expect(problems.password).toEqual(['Пароль должен быть не менее 6 символов']);
  });

  test('when utm_source is blank or missing, then it becomes null', () => {
    expect(RegisterRequest.parse({ email: 'a@b.ru', password: 'secret1', utm_source: ' ' }).utm_source).toBeNull();
    expect(RegisterRequest.parse({ email: 'a@b.ru', password: 'secret1' }).utm_source).toBeNull();
    expect(RegisterRequest.parse({ email: 'a@b.ru', password: 'secret1', utm_source: 'vk' }).utm_source).toBe('vk');
  });
});

describe('RegisterForm', () => {
  test('when the confirmation differs and the agreement is not ticked, then both spec texts', () => {
    const problems = messages(RegisterForm, {
      email: 'a@b.ru',
      password: 'secret1',
      confirmPassword: 'secret2',
      agreement: false,
    });
    expect(problems.confirmPassword).toEqual(['Пароли не совпадают']);
    expect(problems.agreement).toEqual(['Необходимо согласиться с условиями']);
  });

  test('when the e-mail is too short to be an address, then "Некорректный email" (docs/product.md, Validation has no length rule here)', () => {
    expect(
      messages(RegisterForm, { email: 'ab', password: 'secret1', confirmPassword: 'secret1', agreement: true }),
    ).toEqual({ email: ['Некорректный email'] });
  });

  test('when the confirmation is empty, then "Подтвердите пароль"', () => {
    expect(
      messages(RegisterForm, { email: 'a@b.ru', password: 'secret1', confirmPassword: '', agreement: true })
        .confirmPassword,
    ).toEqual(['Подтвердите пароль']);
  });
});

describe('ChangePasswordRequest and ChangePasswordForm', () => {
  test('when fields are missing or short, then the docs/product.md, Validation texts', () => {
    const problems = messages(ChangePasswordRequest, { newPassword: '123' });
    expect(problems.currentPassword).toEqual(['Введите текущий пароль']);
    expect(problems.newPassword).toEqual(['Пароль должен содержать минимум 6 символов']);
    expect(messages(ChangePasswordRequest, { currentPassword: 'x', newPassword: '' }).newPassword).toEqual([
      'Введите новый пароль',
    ]);
  });

  test('when the confirmation is missing or differs, then its spec texts', () => {
    expect(
      messages(ChangePasswordForm, { currentPassword: 'old', newPassword: 'secret1', confirmPassword: '' })
        .confirmPassword,
    ).toEqual(['Подтвердите новый пароль']);
    expect(
      messages(ChangePasswordForm, { currentPassword: 'old', newPassword: 'secret1', confirmPassword: 'secret2' })
        .confirmPassword,
    ).toEqual(['Пароли не совпадают']);
  });

  test('when the new password is too short and the confirmation differs, then both texts at once', () => {
    const problems = messages(ChangePasswordForm, {
      currentPassword: '',
      newPassword: '12345',
      confirmPassword: '123456',
    });
    expect(problems).toEqual({
      currentPassword: ['Введите текущий пароль'],
      newPassword: ['Пароль должен содержать минимум 6 символов'],
      confirmPassword: ['Пароли не совпадают'],
    });
  });
});

describe('ResetPasswordForm', () => {
  test('when the new password is empty and the confirmation too, then the change-password texts', () => {
    expect(messages(ResetPasswordForm, { newPassword: '', confirmPassword: '' })).toEqual({
      newPassword: ['Введите новый пароль'],
      confirmPassword: ['Подтвердите новый пароль'],
    });
  });

  test('when the confirmation differs, then "Пароли не совпадают"', () => {
    expect(messages(ResetPasswordForm, { newPassword: 'secret1', confirmPassword: 'secret2' })).toEqual({
      confirmPassword: ['Пароли не совпадают'],
    });
  });
});

describe('fieldErrors', () => {
  test('gives the first message per field, keyed by the field', () => {
    expect(fieldErrors(RegisterForm, { email: '', password: '1', confirmPassword: '2', agreement: false })).toEqual({
      email: 'Email обязателен для заполнения',
      password: 'Пароль должен быть не менее 6 символов',
      confirmPassword: 'Пароли не совпадают',
      agreement: 'Необходимо согласиться с условиями',
    });
    expect(fieldErrors(LoginRequest, { email: 'a@b.ru', password: 'secret1' })).toEqual({});
  });
});

describe('AdminUserUpdateRequest', () => {
  test('when the deposit is negative or fractional, then it is refused; when absent, nothing is required', () => {
    expect(AdminUserUpdateRequest.safeParse({ depositAmount: -1 }).success).toBe(false);
    expect(AdminUserUpdateRequest.safeParse({ depositAmount: 1.5 }).success).toBe(false);
    expect(AdminUserUpdateRequest.parse({ role: 'admin', tariff_id: null })).toEqual({
      role: 'admin',
      tariff_id: null,
    });
    expect(AdminUserUpdateRequest.safeParse({ role: 'owner' }).success).toBe(false);
  });
});
