import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type FakeMailbox, startFakeMailbox } from '@gpt/kit/testing';
import { sql } from 'kysely';
import { usersRepository } from '../src/data/users.repository';
import { type AuthHarness, BOT_KEY, reportMessage, startAuth } from './support/auth-harness';

const SITE_URL = 'https://gpt.example.com';
let h: AuthHarness;
let mailbox: FakeMailbox;
beforeAll(async () => {
  mailbox = await startFakeMailbox();
  h = await startAuth({ SITE_URL: `${SITE_URL}/`, SMTP_URL: mailbox.url, LINK_TOKEN_TTL_MIN: '20' });
});
afterAll(async () => {
  await h.stop();
  await mailbox.close();
});

const randomTelegramId = () => 1_000_000 + Math.floor(Math.random() * 1e12);

async function linkToken(telegramId: number, photo?: string) {
  const res = await h.api<{ token: string; url: string; expires_at: string }>('POST', '/api/bot/link-tokens', {
    botKey: BOT_KEY,
    body: { telegram_id: telegramId, photo },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const link = (token: string, sessionToken: string) =>
  h.api<Record<string, unknown>>('POST', '/api/auth/link', { token: sessionToken, body: { token } });

describe('POST /api/bot/users', () => {
  test('without the bot key or with a wrong one, then 401', async () => {
    const body = { telegram_id: randomTelegramId() };
    expect((await h.api('POST', '/api/bot/users', { body })).status).toBe(401);
    const wrong = await h.api('POST', '/api/bot/users', { body, botKey: 'wrong-key-123' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Неверный ключ бота', code: 'invalid_bot_key' });
  });

  test('when the Telegram user is new, then 200 with the user and user.registered (source telegram)', async () => {
    const telegramId = randomTelegramId();
    const res = await h.api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: {
        telegram_id: String(telegramId),
        username: 'ivan',
        first_name: 'Иван',
        last_name: null,
        utm_source: 'vk',
        language_code: 'ru',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      telegram_id: telegramId,
      username: 'ivan',
      first_name: 'Иван',
      last_name: null,
      utm_source: 'vk',
      language_code: 'ru',
      email: null,
      telegram_email: null,
      role: 'user',
      web_linked: false,
      created_at: expect.any(String),
    });
    const event = await h.auth.deps.bus.waitFor(
      'published',
      (e) => e.type === 'user.registered' && (e.data as { telegram_id: number }).telegram_id === telegramId,
    );
    expect(event.data).toMatchObject({ source: 'telegram', utm_source: 'vk', telegram_username: 'ivan' });
  });

  test('when the Telegram user is known, then 200, names updated, utm_source kept, user.updated published', async () => {
    const first = await h.buildTelegramUser({ utm_source: 'vk' });
    const res = await h.api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: first.telegram_id, username: 'renamed', first_name: 'Пётр', utm_source: 'google' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: first.id, username: 'renamed', first_name: 'Пётр', utm_source: 'vk' });
    const event = await h.auth.deps.bus.waitFor(
      'published',
      (e) => e.type === 'user.updated' && (e.data as { user_id: number }).user_id === first.id,
    );
    expect(event.data).toMatchObject({ username: 'renamed', telegram_username: 'renamed', version: 1 });
  });

  test('the language of the Telegram app is kept, changed when reported and left as it is when not', async () => {
    const first = await h.buildTelegramUser({ language_code: 'ru' });
    const report = (body: Record<string, unknown>) =>
      h.api('POST', '/api/bot/users', { botKey: BOT_KEY, body: { telegram_id: first.telegram_id, ...body } });
    expect((await report({})).body).toMatchObject({ language_code: 'ru' });
    expect((await report({ language_code: 'en-US' })).body).toMatchObject({ language_code: 'en-US' });
    const refused = await report({ language_code: '<script>' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: expect.stringContaining('language_code') });
  });

  test('when nothing changed, then 200 and the version stays', async () => {
    const first = await h.buildTelegramUser({ username: 'same', first_name: 'A', last_name: 'B', utm_source: 'x' });
    const res = await h.api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: first.telegram_id, username: 'same', first_name: 'A', last_name: 'B' },
    });
    expect(res.status).toBe(200);
    expect((await usersRepository(h.auth.deps.db).findById(first.id))?.version).toBe(0);
  });

  test('when the same new Telegram user arrives twice at once, then one account', async () => {
    const telegramId = randomTelegramId();
    const answers = await Promise.all(
      [1, 2].map(() => h.api('POST', '/api/bot/users', { botKey: BOT_KEY, body: { telegram_id: telegramId } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0]!.body.id).toBe(answers[1]!.body.id);
    const rows = await h.auth.deps.db
      .selectFrom('users')
      .select('id')
      .where('telegram_id', '=', String(telegramId))
      .execute();
    expect(rows).toHaveLength(1);
  });

  test('when telegram_id is not a positive integer, then 400 with the Russian message', async () => {
    const res = await h.api('POST', '/api/bot/users', { botKey: BOT_KEY, body: { telegram_id: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('telegram_id должен быть целым положительным числом');
  });
});

describe('PUT /api/bot/users/{telegram_id}/blocked', () => {
  const report = (telegramId: number, body: unknown, botKey = BOT_KEY) =>
    h.api<{ telegram_id: number; telegram_blocked_at: string | null }>('PUT', `/api/bot/users/${telegramId}/blocked`, {
      botKey,
      body,
    });
  const adminRow = async (id: number) => {
    const res = await h.api<{ users: { id: number; telegram_blocked_at: string | null }[] }>(
      'GET',
      `/api/admin/users?username=tg_`,
      { token: h.admin.token },
    );
    return res.body.users.find((user) => user.id === id);
  };

  test('marks the user from the first report on (a repeat keeps its time), the admin list shows it, false clears it', async () => {
    const user = await h.buildTelegramUser();
    expect((await report(user.telegram_id, { blocked: true }, 'wrong-key-123')).status).toBe(401);
    const marked = await report(user.telegram_id, { blocked: true });
    expect(marked.status).toBe(200);
    expect(marked.body).toEqual({ telegram_id: user.telegram_id, telegram_blocked_at: expect.any(String) });
    const again = await report(user.telegram_id, { blocked: true });
    expect(again.body.telegram_blocked_at).toBe(marked.body.telegram_blocked_at);
    expect((await adminRow(user.id))?.telegram_blocked_at).toBe(marked.body.telegram_blocked_at);

    const cleared = await report(user.telegram_id, { blocked: false });
    expect(cleared.body).toEqual({ telegram_id: user.telegram_id, telegram_blocked_at: null });
    expect((await adminRow(user.id))?.telegram_blocked_at).toBeNull();
  });

  test('an unknown Telegram user is 404, a body without a boolean 400', async () => {
    const unknown = await report(999_000_000_000 + Math.floor(Math.random() * 1e6), { blocked: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'Пользователь не найден' });
    const user = await h.buildTelegramUser();
    const bad = await report(user.telegram_id, { blocked: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: expect.stringContaining('blocked') });
  });
});

describe('POST /api/bot/link-tokens', () => {
  test('then 201 with a token valid LINK_TOKEN_TTL_MIN (here 20) minutes, stored only as a hash, and the site link', async () => {
    const before = Date.now();
    const { token, url, expires_at } = await linkToken(randomTelegramId());
    expect(url).toBe(`${SITE_URL}/link/${token}`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(expires_at) - before;
    expect(ttl).toBeGreaterThan(20 * 60_000 - 5_000);
    expect(ttl).toBeLessThanOrEqual(20 * 60_000 + 1_000);
    const rows = await h.auth.deps.db.selectFrom('link_tokens').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(createHash('sha256').update(token).digest('hex'));
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
  });

  test('without the bot key, then 401', async () => {
    expect((await h.api('POST', '/api/bot/link-tokens', { body: { telegram_id: 5 } })).status).toBe(401);
  });
});

describe('POST /api/auth/link', () => {
  test('when signed out, then 401', async () => {
    const res = await h.api('POST', '/api/auth/link', { body: { token: 'x' } });
    expect(res.status).toBe(401);
  });

  test('when the Telegram user has its own account, then it merges into the web account (usage summed, accounts.linked)', async () => {
    const web = await h.buildUser();
    const telegram = await h.buildTelegramUser({ username: 'tg_merge' });
    await reportMessage(h, telegram.id, '0.000300');
    const { token } = await linkToken(telegram.telegram_id);

    const res = await link(token, web.token);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      merged: true,
      user: {
        id: web.id,
        email: web.email,
        telegram_linked: true,
        telegram_id: telegram.telegram_id,
        telegram_username: 'tg_merge',
      },
    });
    expect(await usersRepository(h.auth.deps.db).findById(telegram.id)).toBeUndefined();
    const survivor = await usersRepository(h.auth.deps.db).findById(web.id);
    expect(survivor?.usage).toEqual({ messagesCount: 1, moneySpent: '0.000300' });
    expect(survivor?.username).toBe('tg_merge');
    const linked = await h.auth.deps.bus.waitFor(
      'published',
      (e) => e.type === 'accounts.linked' && (e.data as { user_id: number }).user_id === web.id,
    );
    expect(linked.data).toMatchObject({ merged_user_id: telegram.id, telegram_id: telegram.telegram_id });

    const bot = await h.api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegram.telegram_id, username: 'tg_merge', first_name: 'Иван', last_name: 'Петров' },
    });
    expect(bot.body).toMatchObject({ id: web.id, email: web.email, web_linked: true });
  });

  test('when the Telegram user has no account yet, then it is bound without a merge', async () => {
    const web = await h.buildUser();
    const telegramId = randomTelegramId();
    const { token } = await linkToken(telegramId);
    const res = await link(token, web.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ merged: false, user: { telegram_linked: true, telegram_id: telegramId } });
    const event = await h.auth.deps.bus.waitFor(
      'published',
      (e) => e.type === 'accounts.linked' && (e.data as { user_id: number }).user_id === web.id,
    );
    expect(event.data).toMatchObject({ merged_user_id: null, telegram_id: telegramId });
  });

  test('when the token was used, then 409 and the message says so', async () => {
    const web = await h.buildUser();
    const { token } = await linkToken(randomTelegramId());
    expect((await link(token, web.token)).status).toBe(200);
    const again = await link(token, web.token);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: 'Ссылка уже использована. Получите новую ссылку в боте',
      code: 'link_token_used',
    });
  });

  test('when two accounts use one token at once, then exactly one links', async () => {
    const [first, second] = [await h.buildUser(), await h.buildUser()];
    const { token } = await linkToken(randomTelegramId());
    const answers = await Promise.all([link(token, first.token), link(token, second.token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });

  test('when the token is unknown, then 404 with the message', async () => {
    const web = await h.buildUser();
    const res = await link('no-such-token', web.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: 'Ссылка для связки аккаунтов недействительна. Получите новую ссылку в боте',
      code: 'link_token_invalid',
    });
  });

  test('when the token is empty, then 400', async () => {
    const web = await h.buildUser();
    const res = await link('  ', web.token);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Ссылка для связки аккаунтов недействительна');
  });

  test('when the token expired, then 410 with the message and the account stays unlinked', async () => {
    const web = await h.buildUser();
    const { token } = await linkToken(randomTelegramId());
    await h.auth.deps.db
      .updateTable('link_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
      .execute();
    const res = await link(token, web.token);
    expect(res.status).toBe(410);
    expect(res.body).toEqual({
      error: 'Срок действия ссылки истёк. Получите новую ссылку в боте',
      code: 'link_token_expired',
    });
    expect((await h.api('GET', '/api/auth/profile', { token: web.token })).body.telegram_linked).toBe(false);
  });

  test('when the web account is linked to another Telegram account, then 409 and the token stays usable', async () => {
    const web = await h.buildUser();
    expect((await link((await linkToken(randomTelegramId())).token, web.token)).status).toBe(200);
    const { token } = await linkToken(randomTelegramId());
    const res = await link(token, web.token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'Ваш аккаунт уже связан с другим Telegram-аккаунтом',
      code: 'account_already_linked',
    });
    const other = await h.buildUser();
    expect((await link(token, other.token)).status).toBe(200);
  });

  test('when the Telegram account is linked to another web account, then 409', async () => {
    const [owner, intruder] = [await h.buildUser(), await h.buildUser()];
    const telegramId = randomTelegramId();
    expect((await link((await linkToken(telegramId)).token, owner.token)).status).toBe(200);
    const res = await link((await linkToken(telegramId)).token, intruder.token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'Этот Telegram-аккаунт уже связан с другим аккаунтом на сайте',
      code: 'telegram_already_linked',
    });
  });

  test('when the account is already linked to this very Telegram account, then 200 without a merge', async () => {
    const web = await h.buildUser();
    const telegramId = randomTelegramId();
    expect((await link((await linkToken(telegramId)).token, web.token)).status).toBe(200);
    const res = await link((await linkToken(telegramId)).token, web.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ merged: false, user: { telegram_id: telegramId } });
  });
});

describe('referrals through linking', () => {
  test('a cycle — A invites B, B invites A’s Telegram account, A links it — leaves A without an inviter', async () => {
    const users = usersRepository(h.auth.deps.db);
    const a = await h.buildUser();
    const aCode = (await users.findById(a.id))!.referralCode;
    const b = await h.buildTelegramUser({ referral_code: aCode });
    const bCode = (await users.findById(b.id))!.referralCode;
    const aTelegram = await h.buildTelegramUser({ referral_code: bCode });
    expect((await users.findById(aTelegram.id))?.referredBy).toBe(b.id);

    expect((await link((await linkToken(aTelegram.telegram_id)).token, a.token)).status).toBe(200);

    expect((await users.findById(a.id))?.referredBy).toBeNull();
    expect((await users.findById(b.id))?.referredBy).toBe(a.id);
  });
});

describe('POST /api/auth/link/preview: the owner sees whose Telegram asks before linking', () => {
  const preview = (token: string, sessionToken: string) =>
    h.api<Record<string, unknown>>('POST', '/api/auth/link/preview', { token: sessionToken, body: { token } });

  test('then 200 with the Telegram name and @username, the token unused and the account still unlinked', async () => {
    const web = await h.buildUser();
    const telegram = await h.buildTelegramUser({ username: 'asker', first_name: 'Мария', last_name: 'Иванова' });
    const { token, expires_at } = await linkToken(telegram.telegram_id);

    const res = await preview(token, web.token);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      telegram: { first_name: 'Мария', last_name: 'Иванова', username: 'asker', photo: null },
      expires_at,
    });
    expect((await h.api('GET', '/api/auth/profile', { token: web.token })).body.telegram_linked).toBe(false);
    expect((await link(token, web.token)).status).toBe(200);
  });

  test('then the profile photo the bot sent with the link, as it came; the bot may send only a small image', async () => {
    const web = await h.buildUser();
    const telegram = await h.buildTelegramUser();
    const photo = `data:image/jpeg;base64,${Buffer.from('face').toString('base64')}`;
    const { token } = await linkToken(telegram.telegram_id, photo);
    expect((await preview(token, web.token)).body).toMatchObject({ telegram: { photo } });

    for (const wrong of [
      'javascript:alert(1)',
      'data:text/html;base64,PGI+',
      `data:image/png;base64,${'A'.repeat(100_000)}`,
    ]) {
      const refused = await h.api('POST', '/api/bot/link-tokens', {
        botKey: BOT_KEY,
        body: { telegram_id: telegram.telegram_id, photo: wrong },
      });
      expect(refused.status).toBe(400);
    }
  });

  test('refuses as the link would: signed out 401, unknown 404, used 409, Telegram held by another site account 409', async () => {
    const [owner, other] = [await h.buildUser(), await h.buildUser()];
    const telegramId = randomTelegramId();
    expect((await h.api('POST', '/api/auth/link/preview', { body: { token: 'x' } })).status).toBe(401);
    expect((await preview('no-such-token', owner.token)).status).toBe(404);
    const { token } = await linkToken(telegramId);
    expect((await link(token, owner.token)).status).toBe(200);
    expect(await preview(token, owner.token)).toMatchObject({ status: 409, body: { code: 'link_token_used' } });
    const fresh = await linkToken(telegramId);
    expect(await preview(fresh.token, other.token)).toMatchObject({
      status: 409,
      body: { code: 'telegram_already_linked' },
    });
  });
});

describe('the owner is told of every link', () => {
  test('a linked account gets a mail naming the Telegram account, with the way to unlink it', async () => {
    const web = await h.buildUser();
    const telegram = await h.buildTelegramUser({ username: 'stranger', first_name: 'Пётр', last_name: null });
    expect((await link((await linkToken(telegram.telegram_id)).token, web.token)).status).toBe(200);

    const mail = await mailbox.waitForMail(web.email, { containing: 'Отвязать Telegram' });

    expect(mail.text).toContain('привязан аккаунт Telegram @stranger (Пётр)');
    expect(mail.text).toContain(`${SITE_URL}/dashboard`);
  });
});

describe('DELETE /api/auth/link: unlinking keeps both sides', () => {
  const unlink = (sessionToken: string) =>
    h.api<Record<string, unknown>>('DELETE', '/api/auth/link', { token: sessionToken });
  const published = (type: string, match: (data: Record<string, unknown>) => boolean) =>
    h.auth.deps.bus.waitFor('published', (e) => e.type === type && match(e.data as Record<string, unknown>));

  test('the site account keeps what was merged, the Telegram user goes on with a new Telegram-only account', async () => {
    const web = await h.buildUser();
    const telegram = await h.buildTelegramUser({ username: 'tg_unlink', first_name: 'Олег' });
    await reportMessage(h, telegram.id, '0.000500');
    expect((await link((await linkToken(telegram.telegram_id)).token, web.token)).status).toBe(200);

    const res = await unlink(web.token);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Telegram отвязан',
      user: { id: web.id, telegram_linked: false, telegram_id: null, telegram_username: null },
    });
    expect((await usersRepository(h.auth.deps.db).findById(web.id))?.usage).toEqual({
      messagesCount: 1,
      moneySpent: '0.000500',
    });
    const unlinked = await published('accounts.unlinked', (data) => data.user_id === web.id);
    const newId = (unlinked.data as { telegram_user_id: number }).telegram_user_id;
    expect(unlinked.data).toMatchObject({ telegram_id: telegram.telegram_id });
    expect(newId).not.toBe(web.id);
    const registered = await published('user.registered', (data) => data.user_id === newId);
    expect(registered.data).toMatchObject({
      source: 'telegram',
      telegram_id: telegram.telegram_id,
      telegram_username: 'tg_unlink',
      email: null,
    });
    expect(
      await published('user.updated', (data) => data.user_id === web.id && data.telegram_id === null),
    ).toBeTruthy();
    // The person had their welcome grant: the new account is not confirmed anew.
    const confirmations = await h.auth.deps.db
      .selectFrom('outbox')
      .select('payload')
      .where('type', '=', 'user.confirmed')
      .where(sql<boolean>`payload::jsonb -> 'data' ->> 'user_id' = ${String(newId)}`)
      .execute();
    expect(confirmations).toEqual([]);

    const bot = await h.api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegram.telegram_id, username: 'tg_unlink', first_name: 'Олег' },
    });
    expect(bot.body).toMatchObject({ id: newId, email: null, web_linked: false });
  });

  test('an account without Telegram is 409 with the Russian message; signed out 401', async () => {
    const web = await h.buildUser();
    expect(await unlink(web.token)).toMatchObject({
      status: 409,
      body: { error: 'Аккаунт не связан с Telegram', code: 'telegram_not_linked' },
    });
    expect((await h.api('DELETE', '/api/auth/link')).status).toBe(401);
  });

  test('an admin unlinks a user in /admin/users; a user cannot unlink another', async () => {
    const web = await h.buildUser();
    const bystander = await h.buildUser();
    expect((await link((await linkToken(randomTelegramId())).token, web.token)).status).toBe(200);
    const path = `/api/admin/users/${web.id}/telegram`;
    expect((await h.api('DELETE', path, { token: bystander.token })).status).toBe(403);

    const res = await h.api('DELETE', path, { token: h.admin.token });

    expect(res).toMatchObject({ status: 200, body: { success: true, message: 'Telegram отвязан' } });
    expect((await h.api('GET', '/api/auth/profile', { token: web.token })).body.telegram_linked).toBe(false);
  });
});
