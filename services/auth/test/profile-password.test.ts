import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type AuthHarness, startAuth } from './support/auth-harness';

let h: AuthHarness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h.stop());

describe('GET /api/auth/profile', () => {
  test('when there is no token, then 401', async () => {
    const res = await h.api('GET', '/api/auth/profile');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Требуется авторизация', code: 'unauthorized' });
  });

  test('when the token is forged, then 401 token_invalid', async () => {
    const res = await h.api('GET', '/api/auth/profile', { token: 'a.b.c' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_invalid');
  });

  test('when signed in, then the docs/product.md, Data fields, with the Base tariff and 0 credits before billing reports', async () => {
    const user = await h.buildUser();
    const res = await h.api('GET', '/api/auth/profile', { token: user.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'id',
        'email',
        'role',
        'created_at',
        'tariff_id',
        'tariff_name',
        'credits',
        'included_credits',
        'held_credits',
        'available_credits',
        'welcome_credits',
        'email_confirmed',
        'monthly_price',
        'tariff_end_date',
        'telegram_linked',
        'telegram_id',
        'telegram_username',
        'telegram_email',
      ].sort(),
    );
    expect(res.body).toMatchObject({
      tariff_name: 'Base',
      credits: 0,
      included_credits: 0,
      held_credits: 0,
      available_credits: 0,
      welcome_credits: 0,
      email_confirmed: false,
      monthly_price: '0.00',
    });
  });
});

describe('POST /api/auth/change-password', () => {
  test('when the current password is wrong, then 400 "Неверный текущий пароль" and nothing changes', async () => {
    const user = await h.buildUser();
    const res = await h.api('POST', '/api/auth/change-password', {
      token: user.token,
      body: { currentPassword: 'not-mine', newPassword: 'brand-new' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Неверный текущий пароль', code: 'invalid_current_password' });
    expect((await h.api('GET', '/api/auth/profile', { token: user.token })).status).toBe(200);
    await expect(h.login(user.email, user.password)).resolves.toBeDefined();
  });

  test.each([
    [{ newPassword: 'brand-new' }, 'Введите текущий пароль'],
    [{ currentPassword: '', newPassword: 'brand-new' }, 'Введите текущий пароль'],
    [{ currentPassword: 'password1' }, 'Введите новый пароль'],
    [{ currentPassword: 'password1', newPassword: '12345' }, 'Пароль должен содержать минимум 6 символов'],
  ])('when the body is %j, then 400 "%s"', async (body, message) => {
    const user = await h.buildUser();
    const res = await h.api('POST', '/api/auth/change-password', { token: user.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  test('when signed out, then 401', async () => {
    const res = await h.api('POST', '/api/auth/change-password', {
      body: { currentPassword: 'password1', newPassword: 'brand-new' },
    });
    expect(res.status).toBe(401);
  });

  test('when it succeeds, then a new token works, every older token is refused and only the new password logs in', async () => {
    const user = await h.buildUser();
    const otherDevice = await h.login(user.email, user.password);

    const res = await h.api<{ success: boolean; message: string; token: string }>('POST', '/api/auth/change-password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'brand-new-1' },
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Пароль успешно изменен', token: expect.any(String) });
    for (const old of [user.token, otherDevice.token]) {
      const refused = await h.api('GET', '/api/auth/profile', { token: old });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: 'Сессия завершена, войдите снова', code: 'token_revoked' });
    }
    expect((await h.api('GET', '/api/auth/profile', { token: res.body.token })).status).toBe(200);
    await expect(h.login(user.email, user.password)).rejects.toThrow(/401/);
    const again = await h.login(user.email, 'brand-new-1');
    expect((await h.api('GET', '/api/auth/profile', { token: again.token })).status).toBe(200);
  });
});
