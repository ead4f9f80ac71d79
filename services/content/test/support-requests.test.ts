import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type {
  AdminSupportRequestsResponse,
  MySupportRequestsResponse,
  SupportAnsweredData,
  SupportRequestResponse,
  SupportUnreadResponse,
} from '@gpt/contracts';
import { signAccessToken } from '@gpt/kit';
import { createEvent, publishRaw, uniqueName } from '@gpt/kit/testing';
import { type ContentClient, type ContentService, contentClient, startContent } from './support';

let content: ContentService;
let api: ContentClient;

beforeAll(async () => {
  content = await startContent();
  api = contentClient(content);
});
afterAll(() => content.stop());

let nextUserId = 700_000 + Math.floor(Math.random() * 100_000);

/** A user auth announced to content (with a linked Telegram or not); answers their id and token. */
async function user(telegramId: number | null) {
  const userId = nextUserId++;
  const event = createEvent('user.registered', 'auth', {
    user_id: userId,
    email: `user${userId}@example.com`,
    role: 'user',
    username: `user${userId}`,
    first_name: 'Мария',
    last_name: 'Иванова',
    telegram_id: telegramId,
    telegram_username: null,
    telegram_email: null,
    utm_source: null,
    referral_code: null,
    referred_by: null,
    created_at: new Date().toISOString(),
    version: 1,
    source: 'web',
  });
  const handled = content.deps.bus.waitFor('acked', (acked) => acked.id === event.id);
  await publishRaw(content.deps.config.AMQP_EXCHANGE, 'user.registered', event);
  await handled;
  const token = signAccessToken({ sub: String(userId), role: 'user', ver: 0 }, content.deps.config.JWT_SECRET);
  return { userId, token };
}

/** Sends the contact form (as the user when a token is given); answers the stored request's id. */
async function send(fields: { email?: string } = {}, token?: string) {
  const subject = uniqueName('Тема');
  const res = await api.call('POST', '/api/feedback', {
    body: { telegram: '@maria', subject, message: 'Не пришли кредиты', ...fields },
    token,
  });
  expect(res.status).toBe(201);
  const list = await api.admin<AdminSupportRequestsResponse>('GET', '/api/admin/support-requests?limit=50');
  return list.body.data.find((request) => request.subject === subject)!;
}

const answerPublished = (requestId: number) =>
  content.deps.bus
    .waitFor('published', (event) => event.type === 'support.answered')
    .then((event) => event.data as SupportAnsweredData)
    .then((data) => {
      expect(data.request_id).toBe(requestId);
      return data;
    });

describe('«Обращения»: the contact form reaches the admin', () => {
  test('a signed-in sender’s request is theirs; the admin lists new ones first with the unread count, and marks one done', async () => {
    const { userId, token } = await user(null);
    const first = await send({}, token);
    const second = await send();
    expect(first).toMatchObject({ user_id: userId, user_email: `user${userId}@example.com`, status: 'new' });
    expect(first.user_name).toBe('Мария Иванова');
    expect(second).toMatchObject({ user_id: null, status: 'new', answer_channel: null });

    const before = (await api.admin<SupportUnreadResponse>('GET', '/api/admin/support-requests/unread')).body.unread;
    const done = await api.admin<SupportRequestResponse>('POST', `/api/admin/support-requests/${first.id}/done`);
    expect(done).toMatchObject({ status: 200, body: { support_request: { id: first.id, status: 'done' } } });
    const after = await api.admin<AdminSupportRequestsResponse>('GET', '/api/admin/support-requests?limit=50');
    expect(after.body.unread).toBe(before - 1);
    const statuses = after.body.data.map((request) => request.status);
    expect(statuses.indexOf('done')).toBeGreaterThan(statuses.lastIndexOf('new'));
  });

  test('an answer to a user with Telegram linked goes through the bot and is in their account', async () => {
    const { userId, token } = await user(555_000_000 + nextUserId);
    const request = await send({ email: 'other@example.com' }, token);
    expect(request.answer_channel).toBe('telegram');
    const published = answerPublished(request.id);

    const res = await api.admin<SupportRequestResponse>('POST', `/api/admin/support-requests/${request.id}/answer`, {
      answer: 'Кредиты начислены, проверьте баланс.',
    });

    expect(res.body.support_request).toMatchObject({ status: 'done', answered_via: 'telegram' });
    expect(await published).toMatchObject({ user_id: userId, channel: 'telegram', email: null });
    const mine = await api.call<MySupportRequestsResponse>('GET', '/api/feedback/mine', { token });
    expect(mine.body.requests).toEqual([
      expect.objectContaining({ id: request.id, answer: 'Кредиты начислены, проверьте баланс.', status: 'done' }),
    ]);
  });

  test('an answer to a sender without Telegram goes by e-mail: the form’s address, else the account’s', async () => {
    const anonymous = await send({ email: 'Guest@Example.com' });
    const published = answerPublished(anonymous.id);
    await api.admin('POST', `/api/admin/support-requests/${anonymous.id}/answer`, { answer: 'Ответ гостю.' });
    expect(await published).toMatchObject({ user_id: null, channel: 'email', email: 'guest@example.com' });

    const { userId, token } = await user(null);
    const own = await send({}, token);
    const ownPublished = answerPublished(own.id);
    await api.admin('POST', `/api/admin/support-requests/${own.id}/answer`, { answer: 'Ответ на почту.' });
    expect(await ownPublished).toMatchObject({ channel: 'email', email: `user${userId}@example.com` });
  });

  test('nowhere to answer, an unknown request, a blank answer and a non-admin are refused in Russian', async () => {
    const request = await send();
    const nowhere = await api.admin('POST', `/api/admin/support-requests/${request.id}/answer`, { answer: 'Ответ' });
    expect(nowhere).toMatchObject({ status: 409, body: { code: 'support_no_channel' } });
    expect(String(nowhere.body.error)).toContain('@maria');

    expect((await api.admin('POST', '/api/admin/support-requests/999999999/done')).status).toBe(404);
    const blank = await api.admin('POST', `/api/admin/support-requests/${request.id}/answer`, { answer: '  ' });
    expect(blank).toMatchObject({ status: 400, body: { error: expect.stringMatching(/[а-я]/) } });
    const { token } = await user(null);
    expect((await api.call('GET', '/api/admin/support-requests', { token })).status).toBe(403);
  });
});
