import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type FakeMailbox, sampleSubscriptionNotice, startFakeMailbox } from '@gpt/kit/testing';
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

const notice = (userId: number, kind: 'reminder' | 'declined', reason: string | null = null) =>
  publishEvent(
    h.auth.deps.config.AMQP_EXCHANGE,
    'subscription.notice',
    sampleSubscriptionNotice(userId, { kind, reason, cancel_url: 'https://gpt.example.ru/dashboard' }),
  );

describe('subscription.notice', () => {
  test('a reminder before the charge is mailed with the amount, the day and where to cancel', async () => {
    const user = await h.buildUser();
    await notice(user.id, 'reminder');
    const mail = await mailbox.waitForMail(user.email, { containing: 'будет списано' });
    expect(mail.text).toContain('350,00');
    expect(mail.text).toContain('26 декабря 2026');
    expect(mail.text).toContain('•••• 4444');
    expect(mail.text).toContain('https://gpt.example.ru/dashboard');
  });

  test('a declined charge is mailed at once with its reason and the retry', async () => {
    const user = await h.buildUser();
    await notice(user.id, 'declined', 'insufficient_funds');
    const mail = await mailbox.waitForMail(user.email, { containing: 'не прошло' });
    expect(mail.text).toContain('на карте не хватило денег');
    expect(mail.text).toContain('Попробуем снова 26 декабря 2026');
  });
});
