import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type FakeMailbox, startFakeMailbox } from '@gpt/kit/testing';
import { type AuthHarness, publishEvent, startAuth } from './support/auth-harness';

let h: AuthHarness;
let mailbox: FakeMailbox;
beforeAll(async () => {
  mailbox = await startFakeMailbox();
  h = await startAuth({ SMTP_URL: mailbox.url, SITE_URL: 'https://gpt.example.ru' });
});
afterAll(async () => {
  await h.stop();
  await mailbox.close();
});

const answered = (email: string | null, channel: 'telegram' | 'email', requestId: number) =>
  publishEvent(h.auth.deps.config.AMQP_EXCHANGE, 'support.answered', {
    request_id: requestId,
    user_id: null,
    channel,
    email,
    subject: 'Не пришли кредиты',
    answer: 'Кредиты начислены, проверьте баланс.',
    answered_at: new Date().toISOString(),
  });

describe('support.answered', () => {
  test('an answer by e-mail is mailed once to the address, with the request’s subject', async () => {
    const email = `asker-${Date.now()}@example.com`;
    await answered(email, 'email', 1);

    const mail = await mailbox.waitForMail(email, { containing: 'Кредиты начислены' });
    expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(mail.text).toContain('https://gpt.example.ru');
  });

  test('an answer through the bot is not mailed', async () => {
    const email = `bot-asker-${Date.now()}@example.com`;
    const later = `later-${Date.now()}@example.com`;
    await answered(email, 'telegram', 2);
    await answered(later, 'email', 3);

    await mailbox.waitForMail(later);
    await expect(mailbox.waitForMail(email, { timeoutMs: 300 })).rejects.toThrow();
  });
});
