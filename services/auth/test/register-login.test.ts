import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { uniqueName } from '@gpt/kit/testing';
import { usersRepository } from '../src/data/users.repository';
import { type AuthHarness, startAuth } from './support/auth-harness';

let h: AuthHarness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h.stop());

const freshEmail = () => `${uniqueName('reg')}@example.com`;

describe('POST /api/auth/register', () => {
  test('when the input is valid, then 201 with a token, the profile (Base tariff, 0 credits) and user.registered', async () => {
    const email = freshEmail();
    const res = await h.api('POST', '/api/auth/register', {
      body: { email: `  ${email.toUpperCase()} `, password: 'secret1', utm_source: 'yandex' },
    });

    expect(res.status).toBe(201);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.user).toEqual({
      id: expect.any(Number),
      email,
      role: 'user',
      created_at: expect.any(String),
      tariff_id: null,
      tariff_name: 'Base',
      credits: 0,
      included_credits: 0,
      held_credits: 0,
      available_credits: 0,
      welcome_credits: 0,
      email_confirmed: false,
      monthly_price: '0.00',
      tariff_end_date: null,
      telegram_linked: false,
      telegram_id: null,
      telegram_username: null,
      telegram_email: null,
    });
    const event = await h.auth.deps.bus.waitFor(
      'published',
      (e) => e.type === 'user.registered' && (e.data as { email: string }).email === email,
    );
    expect(event.data).toMatchObject({ source: 'web', utm_source: 'yandex', role: 'user', version: 0 });
    const stored = await usersRepository(h.auth.deps.db).findByEmail(email);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(stored?.utmSource).toBe('yandex');
  });

  test('when registered, then the token opens the profile', async () => {
    const user = await h.buildUser();
    const res = await h.api('GET', '/api/auth/profile', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, role: 'user' });
  });

  test('when the e-mail is taken in any letter case, then 409 with the Russian message', async () => {
    const user = await h.buildUser();
    const res = await h.api('POST', '/api/auth/register', {
      body: { email: user.email.toUpperCase(), password: 'another1' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Пользователь с таким email уже существует', code: 'email_taken' });
  });

  test('when the same e-mail registers twice at once, then one 201 and one 409', async () => {
    const email = freshEmail();
    const answers = await Promise.all(
      [1, 2].map(() => h.api('POST', '/api/auth/register', { body: { email, password: 'secret1' } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });

  test.each([
    [{ password: 'secret1' }, 'Email обязателен для заполнения'],
    [{ email: '   ', password: 'secret1' }, 'Email обязателен для заполнения'],
    [{ email: 'a@', password: 'secret1' }, 'Email должен быть не короче 3 символов'],
    [{ email: 'not-an-email', password: 'secret1' }, 'Некорректный email'],
    [{ email: 'x@example.com' }, 'Пароль обязателен для заполнения'],
    [{ email: 'x@example.com', password: '' }, 'Пароль обязателен для заполнения'],
    [{ email: 'x@example.com', password: '12345' }, 'Пароль должен быть не менее 6 символов'],
  ])('when the body is %j, then 400 "%s"', async (body, message) => {
    const res = await h.api('POST', '/api/auth/register', { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message, code: 'validation_error' });
  });

  test('when there is no body at all, then 400 with the first rule, not a 500', async () => {
    const res = await h.api('POST', '/api/auth/register');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Email обязателен для заполнения');
  });

  test('when the body is not JSON, then 400 invalid_json', async () => {
    const res = await fetch(`${h.auth.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"email":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_json' });
  });
});

describe('POST /api/auth/login', () => {
  test('when the e-mail (any case) and password are right, then 200 with a token and the profile', async () => {
    const user = await h.buildUser();
    const res = await h.api<{ token: string; user: Record<string, unknown> }>('POST', '/api/auth/login', {
      body: { email: user.email.toUpperCase(), password: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email, tariff_name: 'Base', credits: 0 });
    const profile = await h.api('GET', '/api/auth/profile', { token: res.body.token });
    expect(profile.status).toBe(200);
  });

  test('when the password is wrong or the e-mail unknown, then one and the same 401 message', async () => {
    const user = await h.buildUser();
    const wrongPassword = await h.api('POST', '/api/auth/login', { body: { email: user.email, password: 'wrong-1' } });
    const unknownEmail = await h.api('POST', '/api/auth/login', { body: { email: freshEmail(), password: 'wrong-1' } });
    const expected = { error: 'Неверный email или пароль', code: 'invalid_credentials' };
    expect([wrongPassword.status, unknownEmail.status]).toEqual([401, 401]);
    expect(wrongPassword.body).toEqual(expected);
    expect(unknownEmail.body).toEqual(expected);
  });

  test.each([
    [{ password: 'secret1' }, 'Введите email'],
    [{ email: 'ab', password: 'secret1' }, 'Email должен быть не короче 3 символов'],
    [{ email: 'abc', password: 'secret1' }, 'Некорректный email'],
    [{ email: 'x@example.com' }, 'Пароль обязателен для заполнения'],
    [{ email: 'x@example.com', password: 'short' }, 'Пароль должен быть не менее 6 символов'],
  ])('when the body is %j, then 400 "%s"', async (body, message) => {
    const res = await h.api('POST', '/api/auth/login', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });
});
