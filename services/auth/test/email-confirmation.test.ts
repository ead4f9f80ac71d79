import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { UserConfirmedData } from '@gpt/contracts';
import { type FakeMailbox, startFakeMailbox } from '@gpt/kit/testing';
import { type AuthHarness, startAuth } from './support/auth-harness';

/** A site sign-up is confirmed by the mailed link (docs/product.md, Welcome credits); a bot user at creation. */
let h: AuthHarness;
let mailbox: FakeMailbox;
beforeAll(async () => {
  mailbox = await startFakeMailbox();
  h = await startAuth({
    SMTP_URL: mailbox.url,
    SITE_URL: 'https://gpt.example.ru',
    EMAIL_CONFIRMATION_TTL_HOURS: '48',
  });
});
afterAll(async () => {
  await h.stop();
  await mailbox.close();
});

const CONFIRM_LINK = 'https://gpt.example.ru/confirm-email?token=';

/** The token of the confirmation link in the `nth` confirmation mail to `email`. */
async function mailedToken(email: string, nth = 0): Promise<string> {
  const mail = await mailbox.waitForMail(email, { nth, containing: CONFIRM_LINK });
  const match = /confirm-email\?token=([\w-]+)/.exec(mail.text);
  if (!match) throw new Error(`no confirmation link in: ${mail.text}`);
  return match[1]!;
}

const confirm = (token: string) =>
  h.api<{ success: boolean; message: string; error: string; code: string }>(
    'POST',
    '/api/auth/email-confirmation/confirm',
    { body: { token } },
  );
const resend = (token: string) =>
  h.api<{ message: string; error: string }>('POST', '/api/auth/email-confirmation', { token });
const profileOf = (token: string) => h.api<{ email_confirmed: boolean }>('GET', '/api/auth/profile', { token });
const confirmedEvents = (userId: number) =>
  h.auth.deps.db
    .selectFrom('outbox')
    .select('payload')
    .where('type', '=', 'user.confirmed')
    .execute()
    .then((rows) =>
      rows
        .map(
          (row) =>
            (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as { data: UserConfirmedData },
        )
        .filter((event) => event.data.user_id === userId),
    );

describe('POST /api/auth/email-confirmation/confirm', () => {
  test('a sign-up is unconfirmed and mailed a link; following it confirms once, a second visit is the same success', async () => {
    const user = await h.buildUser();
    expect((await profileOf(user.token)).body.email_confirmed).toBe(false);
    const mail = await mailbox.waitForMail(user.email, { containing: CONFIRM_LINK });
    expect(mail.text).toContain('Ссылка действует 48 ч.');
    const token = await mailedToken(user.email);
    expect(await confirmedEvents(user.id)).toEqual([]);

    const first = await confirm(token);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, message: 'E-mail подтверждён' });
    expect((await profileOf(user.token)).body.email_confirmed).toBe(true);
    const again = await confirm(token);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true, message: 'E-mail подтверждён' });

    const events = await confirmedEvents(user.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ user_id: user.id, via: 'email' });
    expect(typeof events[0]!.data.ip).toBe('string');
  });

  test('an unknown link is 404 and an expired one 410, each with its Russian sentence', async () => {
    const unknown = await confirm('x'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe(
      'Ссылка для подтверждения e-mail недействительна. Запросите новое письмо в личном кабинете',
    );

    const user = await h.buildUser();
    const token = await mailedToken(user.email);
    await h.auth.deps.db
      .updateTable('email_confirmation_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute();
    const expired = await confirm(token);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toBe(
      'Срок действия ссылки для подтверждения e-mail истёк. Запросите новое письмо в личном кабинете',
    );
    expect((await profileOf(user.token)).body.email_confirmed).toBe(false);
  });

  test('an empty token is 400 with the Russian sentence', async () => {
    const res = await confirm('');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Ссылка для подтверждения e-mail недействительна');
  });
});

describe('POST /api/auth/email-confirmation (a new mail)', () => {
  test('sends a new working link, then refuses a second within the minute with 429 and a Russian sentence', async () => {
    const user = await h.buildUser();
    await mailedToken(user.email, 0);

    const sent = await resend(user.token);
    expect(sent.status).toBe(202);
    expect(sent.body.message).toBe(`Письмо отправлено на ${user.email}`);
    const second = await mailedToken(user.email, 1);
    const refused = await resend(user.token);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('Письмо уже отправлено. Запросить ещё одно можно через 1 мин.');
    await expect(
      mailbox.waitForMail(user.email, { nth: 2, timeoutMs: 1500, containing: CONFIRM_LINK }),
    ).rejects.toThrow('no mail #3');

    expect((await confirm(second)).status).toBe(200);
    const confirmedAlready = await resend(user.token);
    expect(confirmedAlready.status).toBe(409);
    expect(confirmedAlready.body.error).toBe('E-mail уже подтверждён');
  });

  test('needs a signed-in user', async () => {
    expect((await h.api('POST', '/api/auth/email-confirmation')).status).toBe(401);
  });
});

describe('accounts confirmed at creation', () => {
  test('a bot user is confirmed by the first /start (user.confirmed via telegram, no address); the admin is confirmed', async () => {
    const telegram = await h.buildTelegramUser();
    const events = await confirmedEvents(telegram.id);
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ user_id: telegram.id, via: 'telegram', ip: null }),
    ]);
    await h.buildTelegramUser({ telegram_id: telegram.telegram_id, first_name: 'Пётр' });
    expect(await confirmedEvents(telegram.id)).toHaveLength(1);
    expect((await profileOf(h.admin.token)).body.email_confirmed).toBe(true);
  });
});
