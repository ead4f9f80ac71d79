import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { apiPath } from '@gpt/contracts/routes';
import { type AuthHarness, BOT_KEY, startAuth } from './support/auth-harness';

/** Signing in from Telegram: the bot's single-use link (/web) and the Telegram Login Widget. */
const BOT_TOKEN = '123456:ABC-test_token_for_widget';
let h: AuthHarness;
beforeAll(async () => {
  h = await startAuth({ TELEGRAM_BOT_TOKEN: BOT_TOKEN, TELEGRAM_BOT_USERNAME: 'gpt_test_bot' });
});
afterAll(() => h.stop());

const signInLink = async (telegramId: number) => {
  const res = await h.api<{ token: string; expires_at: string }>('POST', apiPath('postBotSignInLinks'), {
    botKey: BOT_KEY,
    body: { telegram_id: telegramId },
  });
  expect(res.status).toBe(201);
  return res.body;
};
const useLink = (token: string) =>
  h.api<{ token?: string; user?: { id: number }; error?: string }>('POST', apiPath('postAuthTelegramSignInLink'), {
    body: { token },
  });

/** The widget's data signed as Telegram signs it (https://core.telegram.org/widgets/login). */
function widgetData(fields: Record<string, string | number>, token = BOT_TOKEN) {
  const checked = Object.entries(fields)
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join('\n');
  const secret = createHash('sha256').update(token).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(checked).digest('hex') };
}

describe('the bot’s single-use sign-in link', () => {
  test('signs the Telegram user in as themselves, once; a used or unknown link is refused in Russian', async () => {
    const telegramUser = await h.buildTelegramUser();
    const link = await signInLink(telegramUser.telegram_id);
    const minutes = (Date.parse(link.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);

    const first = await useLink(link.token);
    expect(first.status).toBe(200);
    expect(first.body.user?.id).toBe(telegramUser.id);
    const profile = await h.api<{ id: number }>('GET', apiPath('getAuthProfile'), { token: first.body.token });
    expect(profile.body.id).toBe(telegramUser.id);

    const refused = {
      status: 400,
      body: {
        error: 'Ссылка для входа устарела или уже использована. Попросите новую в боте командой /web.',
        code: 'sign_in_link_invalid',
      },
    };
    expect(await useLink(link.token)).toEqual(refused);
    expect(await useLink('no-such-token')).toEqual(refused);
  });

  test('an expired link is refused; an unknown Telegram user gets none', async () => {
    const telegramUser = await h.buildTelegramUser();
    const link = await signInLink(telegramUser.telegram_id);
    await h.auth.deps.db
      .updateTable('sign_in_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', telegramUser.id)
      .execute();
    expect((await useLink(link.token)).status).toBe(400);
    const unknown = await h.api('POST', apiPath('postBotSignInLinks'), { botKey: BOT_KEY, body: { telegram_id: 9 } });
    expect(unknown.status).toBe(404);
    expect((await h.api('POST', apiPath('postBotSignInLinks'), { body: { telegram_id: 9 } })).status).toBe(401);
  });
});

describe('«Войти через Telegram» (Login Widget)', () => {
  test('the widget is offered with the bot’s username', async () => {
    expect((await h.api('GET', apiPath('getAuthTelegramWidget'))).body).toEqual({ botUsername: 'gpt_test_bot' });
  });

  test('a good hash signs in (the account made on first sight, the same one next time)', async () => {
    const fields = { id: 5_000_000 + Math.floor(Math.random() * 1e6), first_name: 'Мария', username: 'maria_tg' };
    const data = widgetData({ ...fields, auth_date: Math.floor(Date.now() / 1000) });
    const first = await h.api<{ token: string; user: { id: number; telegram_id: number } }>(
      'POST',
      apiPath('postAuthTelegramWidget'),
      { body: data },
    );
    expect(first.status).toBe(200);
    expect(first.body.user.telegram_id).toBe(fields.id);
    const again = await h.api<{ user: { id: number } }>('POST', apiPath('postAuthTelegramWidget'), {
      body: widgetData({ ...fields, auth_date: Math.floor(Date.now() / 1000) }),
    });
    expect(again.body.user.id).toBe(first.body.user.id);
  });

  test('a bad hash, another bot’s signature, a changed field or a day-old auth_date → 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const fields = { id: 6_000_000, first_name: 'Пётр', auth_date: now };
    const refused = {
      status: 401,
      body: { error: 'Не удалось проверить вход через Telegram.', code: 'telegram_widget_invalid' },
    };
    const post = (body: unknown) => h.api('POST', apiPath('postAuthTelegramWidget'), { body });
    expect(await post({ ...widgetData(fields), hash: 'a'.repeat(64) })).toEqual(refused);
    expect(await post(widgetData(fields, '654321:OTHER-bot'))).toEqual(refused);
    expect(await post({ ...widgetData(fields), first_name: 'Павел' })).toEqual(refused);
    expect(await post(widgetData({ ...fields, auth_date: now - 25 * 60 * 60 }))).toEqual(refused);
  });
});

test('without a bot token the widget is hidden and refuses every sign-in', async () => {
  const plain = await startAuth();
  try {
    expect((await plain.api('GET', apiPath('getAuthTelegramWidget'))).body).toEqual({ botUsername: null });
    const data = widgetData({ id: 7_000_000, first_name: 'Анна', auth_date: Math.floor(Date.now() / 1000) });
    expect((await plain.api('POST', apiPath('postAuthTelegramWidget'), { body: data })).status).toBe(401);
  } finally {
    await plain.stop();
  }
});
