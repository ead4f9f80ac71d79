import { describe, expect, test } from '@jest/globals';
import { signUp, startTestStack } from '@gpt/deploy/testing';
import { TEST_SECRETS, uniqueName } from '@gpt/kit/testing';
import type { Locator, Page } from 'playwright-core';
import { callApi, MANY_USERS_ENV } from '../support/api';
import { screenshot } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { png } from '../support/images';
import { storeSession } from '../support/payers';

const BOT_KEY = TEST_SECRETS.BOT_API_KEY;

const site = browserSuite(() => startTestStack(MANY_USERS_ENV));

const api = <T = Record<string, unknown>>(method: string, path: string, options?: Parameters<typeof callApi>[3]) =>
  callApi<T>(site.stack.url, method, path, options);

/** Signs the suite's page in as the given session (what a successful login stores). */
const signInAs = (session: { token: string; user: unknown }) => storeSession(site.page, site.stack.url, session);

/** The admin's session, through the API. */
async function adminSession() {
  const res = await api<{ token: string; user: unknown }>('POST', '/api/auth/login', {
    body: { email: site.stack.admin.email, password: site.stack.admin.password },
  });
  return res.body;
}

async function signInAsAdmin() {
  const session = await adminSession();
  await signInAs(session);
  return session.token;
}

/** A new site account linked, through the API, to a new Telegram account (ids from `telegramBase` up); its link token. */
async function linkedAccount(telegramBase: number) {
  const user = await signUp(site.stack.url);
  const link = await api<{ token: string }>('POST', '/api/bot/link-tokens', {
    botKey: BOT_KEY,
    body: { telegram_id: telegramBase + Math.floor(Math.random() * 1e9) },
  });
  expect((await api('POST', '/api/auth/link', { token: user.token, body: { token: link.body.token } })).status).toBe(
    200,
  );
  return { user, linkToken: link.body.token };
}

const invalidFeedback = (scope: Page | Locator) => scope.locator('.invalid-feedback:visible');

/** Waits until the users table lists exactly these e-mails, in this order. */
function tableShowsEmails(expected: string[]) {
  return site.page.waitForFunction((emails) => {
    const cells = document.querySelectorAll('table[aria-label="Пользователи"] tbody tr td:nth-child(2)');
    return JSON.stringify([...cells].map((cell) => cell.textContent)) === JSON.stringify(emails);
  }, expected);
}

describe('registration and login', () => {
  test('register → dashboard, with the utm_source of the landing URL kept on the account', async () => {
    const source = uniqueName('landing');
    const email = `${uniqueName('signup')}@example.com`;
    await site.page.goto(`${site.stack.url}/?utm_source=${source}`);
    await site.page.goto(`${site.stack.url}/register`);

    await site.page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await expect(invalidFeedback(site.page).allTextContents()).resolves.toEqual([
      'Email обязателен для заполнения',
      'Пароль обязателен для заполнения',
      'Подтвердите пароль',
      'Необходимо согласиться с условиями',
    ]);
    await site.page.getByLabel('Email').fill(email);
    await site.page.getByLabel('Пароль', { exact: true }).fill('password1');
    await site.page.getByLabel('Подтверждение пароля').fill('password2');
    await expect(invalidFeedback(site.page).allTextContents()).resolves.toContain('Пароли не совпадают');
    await site.page.getByLabel('Подтверждение пароля').fill('password1');
    await site.page.getByRole('checkbox').check();
    await screenshot(site.page, 'accounts-register-filled');
    await site.page.getByRole('button', { name: 'Зарегистрироваться' }).click();

    await site.page.waitForURL(`${site.stack.url}/dashboard`);
    const main = site.page.getByRole('main');
    await main.getByText('Основная информация').waitFor();
    await screenshot(site.page, 'accounts-dashboard');
    await expect(main.getByText(email).first().isVisible()).resolves.toBe(true);
    await expect(main.getByText('Пользователь', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(main.getByText('Base', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(main.getByRole('button', { name: 'Связать', exact: true }).isVisible()).resolves.toBe(true);

    const list = await api<{ users: Array<{ email: string; utm_source: string }> }>(
      'GET',
      `/api/admin/users?email=${encodeURIComponent(email)}`,
      { token: (await adminSession()).token },
    );
    expect(list.body.users[0]).toMatchObject({ email, utm_source: source });
  });

  test('a failed registration shows the server’s message', async () => {
    const taken = await signUp(site.stack.url);
    await site.page.goto(`${site.stack.url}/register`);
    await site.page.getByLabel('Email').fill(taken.email);
    await site.page.getByLabel('Пароль', { exact: true }).fill('password1');
    await site.page.getByLabel('Подтверждение пароля').fill('password1');
    await site.page.getByRole('checkbox').check();
    await site.page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    const alert = site.page.getByRole('alert').filter({ hasText: 'Пользователь с таким email уже существует' });
    await alert.waitFor();
    await screenshot(site.page, 'accounts-register-taken');
  });

  test('a wrong password shows the login error under the form', async () => {
    const user = await signUp(site.stack.url);
    await site.page.goto(`${site.stack.url}/login`);
    await site.page.getByLabel('Email').fill(user.email);
    await site.page.getByLabel('Пароль').fill('wrong-password');
    await site.page.getByRole('button', { name: 'Войти' }).click();
    await site.page.getByRole('alert').filter({ hasText: 'Неверный email или пароль' }).waitFor();
    await screenshot(site.page, 'accounts-login-error');
  });
});

describe('a session the server ended', () => {
  test('the account deleted by an admin: reloading the dashboard signs out to /login with the server’s message', async () => {
    const user = await signUp(site.stack.url);
    await signInAs(user);
    await site.page.goto(`${site.stack.url}/dashboard`);
    await site.page.getByRole('main').getByText(user.email).first().waitFor();
    const { token } = await adminSession();
    expect((await api('DELETE', `/api/admin/users/${user.id}`, { token })).status).toBe(200);

    await site.page.reload();
    await site.page.waitForURL(`${site.stack.url}/login`);
    await site.page.getByRole('alert').filter({ hasText: 'Сессия завершена, войдите снова' }).waitFor();
    await screenshot(site.page, 'accounts-session-ended');
    await expect(
      site.page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')]),
    ).resolves.toEqual([null, null]);
  });
});

describe('Telegram linking', () => {
  test('signed out, /link/{token} → login with link_token → link success, and the dashboard shows the link', async () => {
    const user = await signUp(site.stack.url);
    const telegramId = 7_000_000 + Math.floor(Math.random() * 1e9);
    await api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, username: 'e2e_bot_user' },
    });
    const link = await api<{ url: string; token: string }>('POST', '/api/bot/link-tokens', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId },
    });

    await site.page.goto(`${site.stack.url}/link/${link.body.token}`);
    await site.page.waitForURL(`${site.stack.url}/login?link_token=${link.body.token}`);
    await site.page.getByText('вы увидите, какой аккаунт Telegram просит связки').waitFor();
    await screenshot(site.page, 'accounts-login-with-link-token');
    await site.page.getByLabel('Email').fill(user.email);
    await site.page.getByLabel('Пароль').fill(user.password);
    await site.page.getByRole('button', { name: 'Войти' }).click();

    // Signed in, the site.page shows whose Telegram asks and links nothing until «Связать» is pressed.
    await site.page.waitForURL(`${site.stack.url}/link/${link.body.token}`);
    await site.page.getByTestId('link-telegram-account').getByText('@e2e_bot_user').waitFor();
    await screenshot(site.page, 'accounts-link-confirm');
    await site.page.setViewportSize({ width: 390, height: 844 });
    await screenshot(site.page, 'accounts-link-confirm-390');
    await site.page.setViewportSize({ width: 1280, height: 900 });
    expect((await api('GET', '/api/auth/profile', { token: user.token })).body).toMatchObject({
      telegram_linked: false,
    });
    await site.page.getByRole('button', { name: 'Связать' }).click();

    await site.page.waitForURL(`${site.stack.url}/link-success`);
    await site.page.getByRole('heading', { name: 'Аккаунты успешно связаны' }).waitFor();
    await screenshot(site.page, 'accounts-link-success');
    await site.page.getByRole('main').getByRole('link', { name: 'Личный кабинет' }).click();
    await site.page.waitForURL(`${site.stack.url}/dashboard`);
    await site.page.getByText('Связан', { exact: true }).waitFor();
    await expect(site.page.getByText('@e2e_bot_user').isVisible()).resolves.toBe(true);
    await screenshot(site.page, 'accounts-dashboard-linked');
  });

  test('the link site.page shows the Telegram account’s profile photo the bot sent, at 1280 and 390 px', async () => {
    const user = await signUp(site.stack.url);
    const telegramId = 7_500_000 + Math.floor(Math.random() * 1e9);
    await api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, username: 'pictured_user', first_name: 'Вера' },
    });
    const link = await api<{ token: string }>('POST', '/api/bot/link-tokens', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, photo: `data:image/png;base64,${png(160, 160).toString('base64')}` },
    });
    expect(link.status).toBe(201);
    await signInAs(user);
    await site.page.goto(`${site.stack.url}/link/${link.body.token}`);
    const photo = site.page.getByTestId('link-telegram-photo');
    await photo.waitFor();
    await site.page.waitForFunction(
      () => (document.querySelector('[data-testid="link-telegram-photo"]') as HTMLImageElement | null)?.complete,
    );
    await expect(photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).resolves.toBe(160);
    await expect(photo.getAttribute('alt')).resolves.toBe('Фото профиля Telegram: Вера');
    await screenshot(site.page, 'accounts-link-confirm-photo');
    await site.page.setViewportSize({ width: 390, height: 844 });
    await screenshot(site.page, 'accounts-link-confirm-photo-390');
  });

  test('a used link token lands on /link-error with the server’s message', async () => {
    const { user, linkToken } = await linkedAccount(8_000_000);
    await signInAs(user);
    await site.page.goto(`${site.stack.url}/link/${linkToken}`);
    await site.page.waitForURL(`${site.stack.url}/link-error?code=link_token_used`);
    await site.page.getByText('Ссылка уже использована. Получите новую ссылку в боте').waitFor();
    await screenshot(site.page, 'accounts-link-error');
  });

  test('/link-error never shows a text written into its address', async () => {
    await site.page.goto(
      `${site.stack.url}/link-error?error=${encodeURIComponent('Позвоните в поддержку: +7 900 000-00-00')}`,
    );
    await site.page.getByText('Произошла ошибка при связке аккаунтов.').waitFor();
    await expect(site.page.getByText('Позвоните в поддержку').count()).resolves.toBe(0);
  });

  test('«Отвязать Telegram» in the personal account unlinks after a confirmation', async () => {
    const { user } = await linkedAccount(9_000_000);
    await signInAs(user);
    await site.page.goto(`${site.stack.url}/dashboard`);
    await site.page.getByRole('button', { name: 'Отвязать Telegram' }).click();
    const dialog = site.page.getByRole('dialog');
    await dialog.getByText('Баланс, платежи и история сообщений останутся здесь').waitFor();
    await screenshot(site.page, 'accounts-unlink-confirm');
    await dialog.getByRole('button', { name: 'Отвязать' }).click();
    await site.page.getByText('Аккаунт ещё не связан с Telegram').waitFor();
    expect((await api('GET', '/api/auth/profile', { token: user.token })).body).toMatchObject({
      telegram_linked: false,
    });
  });
});

describe('password reset links in Telegram', () => {
  test('the owner of a linked account turns on reset links in Telegram from the account, at 1280 and 390 px', async () => {
    const { user } = await linkedAccount(9_500_000);
    await signInAs(user);
    const read = site.page.waitForResponse(
      (res) => res.url().endsWith('/api/auth/profile/password-reset') && res.request().method() === 'GET',
    );
    await site.page.goto(`${site.stack.url}/dashboard`);
    const toggle = site.page.getByLabel('Присылать ссылку для смены пароля в Telegram, а не на e-mail');
    await read;
    await expect(toggle.isChecked()).resolves.toBe(false);
    const saved = site.page.waitForResponse(
      (res) => res.url().endsWith('/api/auth/profile/password-reset') && res.request().method() === 'PUT',
    );
    await toggle.click();
    expect((await saved).status()).toBe(200);
    expect((await api('GET', '/api/auth/profile/password-reset', { token: user.token })).body).toEqual({
      telegram: true,
    });
    await screenshot(site.page, 'accounts-reset-in-telegram');
    await site.page.setViewportSize({ width: 390, height: 844 });
    await toggle.scrollIntoViewIfNeeded();
    await screenshot(site.page, 'accounts-reset-in-telegram-390');
  });
});

describe('change password', () => {
  test('validation texts and toast, the server’s refusal, then success with the session kept', async () => {
    const user = await signUp(site.stack.url);
    await signInAs(user);
    await site.page.goto(`${site.stack.url}/dashboard`);
    await site.page.getByRole('button', { name: 'Сменить пароль' }).click();
    const dialog = site.page.getByRole('dialog');
    await dialog.waitFor();
    // Focus lands on the current password about 200 ms after opening.
    await site.page.waitForFunction(() => document.activeElement?.id === 'password-current');

    await dialog.getByRole('button', { name: 'Сменить пароль' }).click();
    await expect(invalidFeedback(dialog).allTextContents()).resolves.toEqual([
      'Введите текущий пароль',
      'Введите новый пароль',
      'Подтвердите новый пароль',
    ]);
    const validationToast = site.page.locator('.toast').filter({ hasText: 'Ошибка валидации' });
    await expect(validationToast.textContent()).resolves.toContain('Пожалуйста, проверьте введенные данные.');
    await dialog.getByLabel('Новый пароль', { exact: true }).fill('12345');
    await dialog.getByLabel('Подтверждение нового пароля').fill('123456');
    await expect(invalidFeedback(dialog).allTextContents()).resolves.toEqual([
      'Введите текущий пароль',
      'Пароль должен содержать минимум 6 символов',
      'Пароли не совпадают',
    ]);
    await screenshot(site.page, 'accounts-change-password-validation');

    await dialog.getByLabel('Текущий пароль').fill('not-my-password');
    await dialog.getByLabel('Новый пароль', { exact: true }).fill('password2');
    await dialog.getByLabel('Подтверждение нового пароля').fill('password2');
    await dialog.getByRole('button', { name: 'Сменить пароль' }).click();
    await site.page.locator('.toast').filter({ hasText: 'Неверный текущий пароль' }).waitFor();

    await dialog.getByLabel('Текущий пароль').fill(user.password);
    await dialog.getByRole('button', { name: 'Сменить пароль' }).click();
    const success = site.page.locator('.toast').filter({ hasText: 'Пароль изменён' });
    await success.waitFor();
    await expect(success.textContent()).resolves.toContain('Теперь входите с новым паролем.');
    await expect(success.textContent()).resolves.not.toContain('Успех');
    await dialog.waitFor({ state: 'hidden' });
    await screenshot(site.page, 'accounts-change-password-success');

    // The old token is revoked; the site.page goes on with the new one.
    await site.page.reload();
    await site.page.getByRole('main').getByText(user.email).first().waitFor();
    const stored = await site.page.evaluate(() => localStorage.getItem('token'));
    expect(stored).not.toBe(user.token);
    expect((await api('GET', '/api/auth/profile', { token: stored ?? '' })).status).toBe(200);
  });
});

describe('admin users', () => {
  test('«Отвязать Telegram» on a linked user unlinks after a confirmation', async () => {
    const { user } = await linkedAccount(9_500_000);
    await signInAsAdmin();
    await site.page.goto(`${site.stack.url}/admin/users?email=${encodeURIComponent(user.email)}`);
    const row = site.page.getByRole('table', { name: 'Пользователи' }).locator('tr', { hasText: user.email });
    await row.getByRole('button', { name: 'Отвязать Telegram' }).click();
    const dialog = site.page.getByRole('dialog').filter({ hasText: 'Баланс, платежи и история останутся' });
    await dialog.waitFor();
    await screenshot(site.page, 'accounts-admin-unlink');
    await dialog.getByRole('button', { name: 'Отвязать' }).click();
    await site.page.locator('.toast').filter({ hasText: 'Telegram отвязан' }).waitFor();
    await expect(row.getByRole('button', { name: 'Отвязать Telegram' }).count()).resolves.toBe(0);
    expect((await api('GET', '/api/auth/profile', { token: user.token })).body).toMatchObject({
      telegram_linked: false,
    });
  });

  test('filter by a UTM chip, sort, edit (deposit and tariff through billing) and delete', async () => {
    const source = uniqueName('chip');
    const [first, second] = [
      await signUp(site.stack.url, { utmSource: source }),
      await signUp(site.stack.url, { utmSource: source }),
    ];
    await signInAsAdmin();
    await site.page.goto(`${site.stack.url}/admin/users`);
    const table = site.page.getByRole('table', { name: 'Пользователи' });
    await table.locator('tbody tr').first().waitFor();
    await screenshot(site.page, 'accounts-admin-users');

    await site.page.getByRole('button', { name: new RegExp(`^${source} 2$`) }).click();
    await site.page.waitForURL(new RegExp(`utm_source=${source}`));
    await tableShowsEmails([second.email, first.email]);
    await screenshot(site.page, 'accounts-admin-users-chip');

    await table.getByRole('button', { name: /^Пользователь/ }).click();
    await tableShowsEmails([first.email, second.email].sort());

    const firstRow = table.locator('tr', { hasText: first.email });
    // No messages yet, so no history action.
    await expect(firstRow.getByRole('button', { name: 'История сообщений' }).count()).resolves.toBe(0);
    await firstRow.getByRole('button', { name: 'Просмотр' }).click();
    const view = site.page.getByRole('dialog').filter({ hasText: 'Информация о пользователе' });
    await view.getByText(first.email).waitFor();
    // The dialog fades in; shoot it once it is fully shown.
    await site.page.waitForFunction(() =>
      [...document.querySelectorAll('.modal')].some((m) => getComputedStyle(m).opacity === '1'),
    );
    await expect(view.textContent()).resolves.toContain(source);
    await screenshot(site.page, 'accounts-admin-users-view');
    await view.getByRole('button', { name: 'Закрыть' }).first().click();
    await view.waitFor({ state: 'hidden' });

    await firstRow.getByRole('button', { name: 'Редактировать' }).click();
    const edit = site.page.getByRole('dialog').filter({ hasText: 'Редактировать пользователя' });
    await edit.getByLabel('Тариф').selectOption({ label: 'Premium' });
    // A deposit is a whole number of credits, at least 0: the contract's message shows under the field.
    await edit.getByLabel('Пополнение кредитов').fill('-5');
    await edit.getByRole('button', { name: 'Сохранить' }).click();
    await expect(edit.locator('#user-edit-deposit ~ .invalid-feedback').textContent()).resolves.toBe(
      'Сумма пополнения должна быть целым неотрицательным числом',
    );
    await screenshot(site.page, 'accounts-admin-users-edit-invalid');
    // A deposit needs its reason (it goes into the audit log).
    await edit.getByLabel('Причина').fill('Бонус за отзыв');
    await edit.getByLabel('Пополнение кредитов').fill('500');
    await edit.locator('.invalid-feedback').first().waitFor({ state: 'detached' });
    await screenshot(site.page, 'accounts-admin-users-edit');
    await edit.getByRole('button', { name: 'Сохранить' }).click();
    await edit.waitFor({ state: 'hidden' });
    const row = table.locator('tr', { hasText: first.email });
    await row.filter({ hasText: 'Premium' }).waitFor();
    expect(await row.textContent()).toContain('500');

    await table.locator('tr', { hasText: second.email }).getByRole('button', { name: 'Удалить' }).click();
    const confirm = site.page.getByRole('dialog').filter({ hasText: 'Удаление пользователя' });
    await expect(confirm.textContent()).resolves.toContain(
      `Вы действительно хотите удалить пользователя ${second.email}`,
    );
    await screenshot(site.page, 'accounts-admin-users-delete');
    await confirm.getByRole('button', { name: 'Удалить' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await tableShowsEmails([first.email]);
    await screenshot(site.page, 'accounts-admin-users-after');
  }, 60_000);

  test('a Telegram user who blocked the bot has «Бот заблокирован» beside them, its date in Moscow time, until they write again', async () => {
    const telegramId = 8_100_000 + Math.floor(Math.random() * 100_000);
    const name = uniqueName('Заблокировавший');
    const registered = await api('POST', '/api/bot/users', {
      botKey: BOT_KEY,
      body: { telegram_id: telegramId, username: null, first_name: name, last_name: null },
    });
    expect(registered.status).toBe(200);
    const report = (blocked: boolean) =>
      api<{ telegram_blocked_at: string | null }>('PUT', `/api/bot/users/${telegramId}/blocked`, {
        botKey: BOT_KEY,
        body: { blocked },
      });
    const marked = await report(true);
    expect(marked.status).toBe(200);
    const since = marked.body.telegram_blocked_at!;
    // Reported again (the bot's retry): the first time stays.
    await expect(report(true).then((res) => res.body.telegram_blocked_at)).resolves.toBe(since);
    const moscow = new Intl.DateTimeFormat('ru-RU', {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'Europe/Moscow',
    }).format(new Date(since));

    await signInAsAdmin();
    await site.page.goto(`${site.stack.url}/admin/users`);
    const table = site.page.getByRole('table', { name: 'Пользователи' });
    const row = table.locator('tbody tr', { hasText: name });
    const badge = row.getByTestId('telegram-blocked');
    await badge.waitFor();
    await expect(badge.textContent()).resolves.toBe('Бот заблокирован');
    await expect(badge.getAttribute('title')).resolves.toBe(`Заблокировал бота ${moscow} МСК`);
    await expect(table.getByTestId('telegram-blocked').count()).resolves.toBe(1);
    await screenshot(site.page, 'accounts-admin-users-blocked');
    await site.page.setViewportSize({ width: 800, height: 900 });
    await badge.waitFor();
    await screenshot(site.page, 'accounts-admin-users-blocked-800');
    await site.page.setViewportSize({ width: 1280, height: 900 });

    await row.getByRole('button', { name: 'Просмотр' }).click();
    const view = site.page.getByRole('dialog').filter({ hasText: 'Информация о пользователе' });
    await view.getByText(String(telegramId)).waitFor();
    await expect(view.getByTestId('telegram-blocked').textContent()).resolves.toBe('Бот заблокирован');
    await view.getByRole('button', { name: 'Закрыть' }).first().click();
    await view.waitFor({ state: 'hidden' });

    // The user wrote to the bot again.
    expect((await report(false)).body.telegram_blocked_at).toBeNull();
    await site.page.reload();
    await table.locator('tbody tr', { hasText: name }).waitFor();
    await expect(table.getByTestId('telegram-blocked').count()).resolves.toBe(0);
  }, 60_000);
});
