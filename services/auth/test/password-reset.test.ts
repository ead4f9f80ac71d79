import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type FakeMailbox, startFakeMailbox } from '@gpt/kit/testing';
import { type AuthHarness, BOT_KEY, startAuth } from './support/auth-harness';

let h: AuthHarness;
let mailbox: FakeMailbox;
beforeAll(async () => {
  mailbox = await startFakeMailbox();
  h = await startAuth({ SMTP_URL: mailbox.url, SITE_URL: 'https://gpt.example.ru', PASSWORD_RESET_PER_HOUR: '2' });
});
afterAll(async () => {
  await h.stop();
  await mailbox.close();
});

const ACCEPTED = {
  success: true,
  message:
    'Если аккаунт с таким email существует, мы отправили на него ссылку для смены пароля. Ссылка действует 30 минут.',
};

const requestReset = (email: string) => h.api('POST', '/api/auth/password-reset', { body: { email } });
const confirm = (token: string, newPassword: string) =>
  h.api<{ token: string; message: string; error: string; code: string; user: { id: number } }>(
    'POST',
    '/api/auth/password-reset/confirm',
    { body: { token, newPassword } },
  );

/** What a recovery mail holds and the sign-up's confirmation mail does not. */
const RESET_LINK = '/reset-password/';

/** The token of the recovery link in the `nth` mail (0: the first) to `email`. */
async function mailedToken(email: string, nth = 0): Promise<string> {
  const mail = await mailbox.waitForMail(email, { nth, containing: RESET_LINK });
  const match = mail.text.match(/https:\/\/gpt\.example\.ru\/reset-password\/([\w-]+)/);
  if (!match) throw new Error(`no recovery link in the mail to ${email}: ${mail.text}`);
  return match[1]!;
}

describe('POST /api/auth/password-reset', () => {
  test('when the e-mail has an account, then 202 and a mail with a single-use link to the site', async () => {
    const user = await h.buildUser();
    const res = await requestReset(user.email.toUpperCase());
    expect(res.status).toBe(202);
    expect(res.body).toEqual(ACCEPTED);
    const mail = await mailbox.waitForMail(user.email, { containing: RESET_LINK });
    expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(mail.text).toContain('Ссылка действует 30 минут и срабатывает один раз.');
    expect(await mailedToken(user.email)).toMatch(/^[\w-]{43}$/);
  });

  test('when the e-mail has no account, then the same 202 answer and no mail', async () => {
    const email = `nobody-${Date.now()}@example.com`;
    const res = await requestReset(email);
    expect(res.status).toBe(202);
    expect(res.body).toEqual(ACCEPTED);
    await expect(mailbox.waitForMail(email, { timeoutMs: 1500 })).rejects.toThrow('no mail');
  });

  test('when the e-mail is malformed, then 400 with the Russian message', async () => {
    const res = await requestReset('not-an-email');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Некорректный email');
  });

  test('when the account had its hourly allowance of links, then the same answer and no further mail', async () => {
    const user = await h.buildUser();
    await requestReset(user.email);
    await mailedToken(user.email, 0);
    await requestReset(user.email);
    await mailedToken(user.email, 1);
    const third = await requestReset(user.email);
    expect(third.status).toBe(202);
    expect(third.body).toEqual(ACCEPTED);
    await expect(mailbox.waitForMail(user.email, { nth: 2, timeoutMs: 1500, containing: RESET_LINK })).rejects.toThrow(
      'no mail #3',
    );
  });

  test('when the account is linked to Telegram, then the link goes only to the e-mail: password_reset.requested tells the bot without it', async () => {
    const user = await h.buildUser();
    const telegram = await h.buildTelegramUser();
    const link = await h.api<{ token: string }>('POST', '/api/bot/link-tokens', {
      botKey: BOT_KEY,
      body: { telegram_id: telegram.telegram_id },
    });
    expect(
      (await h.api('POST', '/api/auth/link', { token: user.token, body: { token: link.body.token } })).status,
    ).toBe(200);

    await requestReset(user.email);
    await mailedToken(user.email);
    const event = await h.auth.deps.bus.waitFor(
      'published',
      (e) => e.type === 'password_reset.requested' && (e.data as { user_id: number }).user_id === user.id,
    );
    expect(event.data).toEqual({
      user_id: user.id,
      telegram_id: telegram.telegram_id,
      expires_at: expect.any(String),
    });
    const minutesLeft = (Date.parse((event.data as { expires_at: string }).expires_at) - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(29);
    expect(minutesLeft).toBeLessThanOrEqual(30);
  });

  test('when the owner chose Telegram for reset links, signed in, then the link goes to the linked Telegram account instead of the e-mail, until another one is linked', async () => {
    const user = await h.buildUser();
    const channel = (body?: { telegram: boolean }) =>
      h.api<{ telegram: boolean; code: string }>(body ? 'PUT' : 'GET', '/api/auth/profile/password-reset', {
        token: user.token,
        body,
      });
    const linkTelegram = async () => {
      const telegram = await h.buildTelegramUser();
      const link = await h.api<{ token: string }>('POST', '/api/bot/link-tokens', {
        botKey: BOT_KEY,
        body: { telegram_id: telegram.telegram_id },
      });
      const linked = await h.api('POST', '/api/auth/link', { token: user.token, body: { token: link.body.token } });
      expect(linked.status).toBe(200);
      return telegram;
    };
    const resetEvent = () =>
      h.auth.deps.bus.waitFor(
        'published',
        (e) => e.type === 'password_reset.requested' && (e.data as { user_id: number }).user_id === user.id,
      );

    // Nothing is linked: there is no Telegram account to choose.
    expect((await channel({ telegram: true })).body).toMatchObject({ code: 'telegram_not_linked' });
    const telegram = await linkTelegram();
    expect((await channel()).body).toEqual({ telegram: false });
    expect((await channel({ telegram: true })).body).toEqual({ telegram: true });
    expect((await channel()).body).toEqual({ telegram: true });

    let published = resetEvent();
    await requestReset(user.email);
    const event = await published;
    expect(event.data).toEqual({
      user_id: user.id,
      telegram_id: telegram.telegram_id,
      expires_at: expect.any(String),
      reset_url: expect.stringMatching(/^https:\/\/gpt\.example\.ru\/reset-password\/[\w-]{43}$/),
    });
    await expect(mailbox.waitForMail(user.email, { timeoutMs: 1500, containing: RESET_LINK })).rejects.toThrow(
      'no mail',
    );
    // The link the bot was given works.
    const token = (event.data as { reset_url: string }).reset_url.split('/').pop()!;
    expect((await confirm(token, 'new-password-1')).status).toBe(200);

    // The choice named that Telegram account: one linked later gets no link, the e-mail does.
    const session = await h.api<{ token: string }>('POST', '/api/auth/login', {
      body: { email: user.email, password: 'new-password-1' },
    });
    user.token = session.body.token;
    expect((await h.api('DELETE', '/api/auth/link', { token: user.token })).status).toBe(200);
    await linkTelegram();
    expect((await channel()).body).toEqual({ telegram: false });
    published = resetEvent();
    await requestReset(user.email);
    expect((await published).data).not.toHaveProperty('reset_url');
    await mailedToken(user.email);
  });
});

describe('POST /api/auth/password-reset/confirm', () => {
  test('when the link is fresh, then the new password works, the old one and every older session do not', async () => {
    const user = await h.buildUser();
    const otherSession = await h.login(user.email, user.password);
    await requestReset(user.email);
    const token = await mailedToken(user.email);

    const res = await confirm(token, 'brand-new-pass');

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Пароль изменён. Вы вошли с новым паролем');
    expect(res.body.user.id).toBe(user.id);
    expect((await h.api('GET', '/api/auth/profile', { token: res.body.token })).status).toBe(200);
    for (const old of [user.token, otherSession.token]) {
      expect((await h.api('GET', '/api/auth/profile', { token: old })).status).toBe(401);
    }
    await expect(h.login(user.email, user.password)).rejects.toThrow('401');
    await expect(h.login(user.email, 'brand-new-pass')).resolves.toBeDefined();
  });

  test('when the link was used, then 409 in Russian; a second open link of the user is void too', async () => {
    const user = await h.buildUser();
    await requestReset(user.email);
    const first = await mailedToken(user.email, 0);
    await requestReset(user.email);
    const second = await mailedToken(user.email, 1);
    expect((await confirm(first, 'brand-new-pass')).status).toBe(200);

    for (const token of [first, second]) {
      const again = await confirm(token, 'another-pass');
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        error: 'Ссылка для смены пароля уже использована. Запросите новую ссылку',
        code: 'reset_token_used',
      });
    }
    await expect(h.login(user.email, 'brand-new-pass')).resolves.toBeDefined();
  });

  test('when the link has expired, then 410 in Russian and the password stays', async () => {
    const user = await h.buildUser();
    await requestReset(user.email);
    const token = await mailedToken(user.email);
    await h.auth.deps.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute();

    const res = await confirm(token, 'brand-new-pass');

    expect(res.status).toBe(410);
    expect(res.body).toEqual({
      error: 'Срок действия ссылки для смены пароля истёк. Запросите новую ссылку',
      code: 'reset_token_expired',
    });
    await expect(h.login(user.email, user.password)).resolves.toBeDefined();
  });

  test('when the token is unknown, then 404 in Russian; when the password is short, then 400', async () => {
    const unknown = await confirm('no-such-token', 'brand-new-pass');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Ссылка для смены пароля недействительна. Запросите новую ссылку');
    const short = await confirm('no-such-token', '123');
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('Пароль должен содержать минимум 6 символов');
  });
});
