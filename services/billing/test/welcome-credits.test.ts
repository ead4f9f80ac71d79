import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { apiPath } from '@gpt/contracts/openapi';
import { startTestService } from '@gpt/kit/testing';
import { loadAuthConfig } from '../../auth/src/config';
import { authService } from '../../auth/src/service';
import { registered, startBillingHarness, type BillingHarness } from './support/harness';
import { recordedMessage } from './support/events';

let h: BillingHarness;

beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(() => h.stop());
beforeEach(() => h.setWelcomeCredits(2000));

const ledgerOf = (userId: number) =>
  h.billing.deps.db
    .selectFrom('ledger_entries')
    .select(['reference', 'bucket', 'amount', 'reason'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

let nextTelegramId = 610_000_000;
const telegramUser = () => {
  const telegramId = nextTelegramId++;
  return h
    .registerUser({ telegram_id: telegramId, email: null, source: 'telegram' })
    .then((id) => ({ id, telegramId }));
};

function link(webId: number, botId: number, telegramId: number) {
  return h.deliver('accounts.linked', {
    user_id: webId,
    merged_user_id: botId,
    telegram_id: telegramId,
    linked_at: new Date().toISOString(),
  });
}

describe('user.confirmed: the welcome grant', () => {
  test('when a site account is only registered, then it gets a balance and no grant', async () => {
    const userId = await h.registerUser({}, { confirmed: false });
    expect(await h.balance(userId)).toMatchObject({ credits: 0, welcome_credits: 0 });
    expect(await ledgerOf(userId)).toEqual([]);
  });

  test('when a person confirms their site account, then they get welcome_credits once, as their own ledger entry, announced in the snapshot', async () => {
    const userId = await h.registerUser({}, { ip: '198.51.100.1' });

    expect(await h.balance(userId)).toMatchObject({ credits: 2000, welcome_credits: 2000, money_deposited: '0.00' });
    expect(await ledgerOf(userId)).toEqual([
      { reference: `welcome:${userId}`, bucket: 'credits', amount: '2000', reason: 'welcome_grant' },
    ]);
    expect(await h.publishedChange(userId, 'welcome_grant')).toMatchObject({
      credits: 2000,
      welcome_credits: 2000,
      money_deposited: '0.00',
      reference: `welcome:${userId}`,
    });
  });

  test('when a bot user is registered, then the grant comes with the projection, before user.confirmed', async () => {
    const telegramId = nextTelegramId++;
    const id = await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' }, { confirmed: false });
    expect(await h.balance(id)).toMatchObject({ credits: 2000, welcome_credits: 2000 });
    await h.confirmUser(id, null, 'telegram');
    expect((await ledgerOf(id)).filter((entry) => entry.reason === 'welcome_grant')).toHaveLength(1);
  });

  test('when a person starts in the bot, then they get the same grant and the bot sees it', async () => {
    const { id, telegramId } = await telegramUser();
    const res = await h.call('GET', `/api/bot/balance?telegram_id=${telegramId}`, { bot: true });
    expect(res.body).toMatchObject({ user_id: id, credits: 2000, available_credits: 2000, welcome_credits: 2000 });
  });

  test('when user.confirmed is delivered again (the same event, then a new event for the same user), then it grants once', async () => {
    const id = 700_000 + Math.floor(Math.random() * 100_000);
    await h.deliver(
      'user.registered',
      registered(id, { email: `replay${randomUUID()}@example.com`, username: null, first_name: null, last_name: null }),
    );
    const event = h.event('user.confirmed', { user_id: id, at: new Date().toISOString(), via: 'email', ip: null });
    await h.publish(event);
    await h.consumed(event.id);
    await h.publish(event);
    await h.consumed(event.id);
    await h.confirmUser(id, null);

    expect(await h.balance(id)).toMatchObject({ credits: 2000, welcome_credits: 2000 });
    expect((await ledgerOf(id)).filter((entry) => entry.reason === 'welcome_grant')).toHaveLength(1);
  });

  test('when welcome_credits is 0, then a new person gets nothing and no welcome entry', async () => {
    await h.setWelcomeCredits(0);
    const userId = await h.registerUser();
    expect(await h.balance(userId)).toMatchObject({ credits: 0, welcome_credits: 0 });
    expect(await ledgerOf(userId)).toEqual([]);
  });

  test('when an older setting.changed arrives after a newer one, then the newer value stays', async () => {
    await h.setWelcomeCredits(500);
    await h.deliver('setting.changed', {
      key: 'welcome_credits',
      value: '0',
      version: 1,
      changed_at: new Date().toISOString(),
    });
    const userId = await h.registerUser();
    expect(await h.balance(userId)).toMatchObject({ credits: 500, welcome_credits: 500 });
  });
});

describe('welcome_per_address_daily: grants a day to accounts from one address', () => {
  test('when the address had its day’s grants, then the next account from it gets none while another address still does', async () => {
    await h.setWelcomeSetting('welcome_per_address_daily', 2);
    const address = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    const first = await h.registerUser({}, { ip: address });
    const second = await h.registerUser({}, { ip: address });
    const third = await h.registerUser({}, { ip: address });
    const elsewhere = await h.registerUser({}, { ip: '2001:db8::7' });
    const bot = await telegramUser();

    for (const id of [first, second, elsewhere, bot.id]) {
      expect(await h.balance(id)).toMatchObject({ credits: 2000, welcome_credits: 2000 });
    }
    expect(await h.balance(third)).toMatchObject({ credits: 0, welcome_credits: 0 });
    expect(await ledgerOf(third)).toEqual([]);
    const grants = await h.billing.deps.db
      .selectFrom('welcome_grants')
      .select(['user_id', 'address'])
      .where('user_id', 'in', [first, second, third])
      .orderBy('user_id')
      .execute();
    expect(grants).toEqual([
      { user_id: first, address },
      { user_id: second, address },
    ]);
    await h.setWelcomeSetting('welcome_per_address_daily', 3);
  });

  test('when IPv6 addresses share a /64, then they share its allowance', async () => {
    await h.setWelcomeSetting('welcome_per_address_daily', 1);
    const network = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`;
    const first = await h.registerUser({}, { ip: `${network}::1` });
    const sameNetwork = await h.registerUser({}, { ip: `${network}:aaaa:bbbb:cccc:dddd` });
    const nextNetwork = await h.registerUser({}, { ip: `${network.replace(/:1$/, ':2')}::1` });
    expect(await h.balance(first)).toMatchObject({ welcome_credits: 2000 });
    expect(await h.balance(sameNetwork)).toMatchObject({ welcome_credits: 0 });
    expect(await h.balance(nextNetwork)).toMatchObject({ welcome_credits: 2000 });
    await h.setWelcomeSetting('welcome_per_address_daily', 3);
  });

  test('when the account holds a grant merged in from the person’s bot account, then confirming gives no second one', async () => {
    const webId = await h.registerUser({}, { confirmed: false });
    const bot = await telegramUser();
    await link(webId, bot.id, bot.telegramId);
    await h.confirmUser(webId, '198.51.100.77');
    expect(await h.balance(webId)).toMatchObject({ credits: 2000, welcome_credits: 2000 });
    expect((await ledgerOf(webId)).map((entry) => entry.reason)).not.toContain('welcome_grant');
  });
});

describe('accounts.linked: one welcome grant per person', () => {
  test('when the Telegram user goes on with a new account after unlinking, then that account gets no second grant', async () => {
    const webId = await h.registerUser();
    const bot = await telegramUser();
    await link(webId, bot.id, bot.telegramId);

    const fresh = await h.registerUser({ telegram_id: bot.telegramId, email: null, source: 'telegram' });

    expect(await h.balance(fresh)).toMatchObject({ credits: 0, welcome_credits: 0 });
    expect((await ledgerOf(fresh)).map((entry) => entry.reason)).not.toContain('welcome_grant');
    const res = await h.call('GET', `/api/bot/balance?telegram_id=${bot.telegramId}`, { bot: true });
    expect(res.body).toMatchObject({ user_id: fresh, credits: 0, welcome_credits: 0 });
  });

  test('when both accounts had the grant, then the merged balance keeps one: the second is taken back as its own entry', async () => {
    const webId = await h.registerUser();
    const bot = await telegramUser();

    const linked = await link(webId, bot.id, bot.telegramId);

    expect(await h.balance(webId)).toMatchObject({ credits: 2000, welcome_credits: 2000 });
    expect(await ledgerOf(webId)).toEqual([
      { reference: `welcome:${webId}`, bucket: 'credits', amount: '2000', reason: 'welcome_grant' },
      { reference: `merge:${linked.id}`, bucket: 'credits', amount: '2000', reason: 'merge' },
      { reference: `merge:${linked.id}`, bucket: 'included', amount: '0', reason: 'merge' },
      { reference: `merge:${linked.id}:welcome`, bucket: 'credits', amount: '-2000', reason: 'welcome_revoked' },
    ]);
    expect(await h.publishedChange(webId, 'welcome_revoked')).toMatchObject({ credits: 2000, welcome_credits: 2000 });
  });

  test('when the same accounts.linked is delivered again, then the grant is not taken back twice', async () => {
    const webId = await h.registerUser();
    const bot = await telegramUser();
    const event = h.event('accounts.linked', {
      user_id: webId,
      merged_user_id: bot.id,
      telegram_id: bot.telegramId,
      linked_at: new Date().toISOString(),
    });
    await h.publish(event);
    await h.consumed(event.id);
    await h.publish(event);
    await h.consumed(event.id);
    expect(await h.balance(webId)).toMatchObject({ credits: 2000, welcome_credits: 2000 });
  });

  test('when only the Telegram account had the grant, then the survivor takes it over and nothing is taken back', async () => {
    await h.setWelcomeCredits(0);
    const webId = await h.registerUser();
    await h.setWelcomeCredits(2000);
    const bot = await telegramUser();

    await link(webId, bot.id, bot.telegramId);

    expect(await h.balance(webId)).toMatchObject({ credits: 2000, welcome_credits: 2000 });
    expect((await ledgerOf(webId)).map((entry) => entry.reason)).not.toContain('welcome_revoked');
  });

  test('when part of the second grant was already spent, then only what is left is taken back: credits never go below zero', async () => {
    const webId = await h.registerUser();
    const bot = await telegramUser();
    const spend = (userId: number, cost: number, messageId: number) =>
      recordedMessage(userId, cost, { message_id: messageId, image_count: 0, hold_id: null });
    await h.deliver('message.recorded', spend(webId, 1500, 9_000_000 + webId));
    await h.deliver('message.recorded', spend(bot.id, 1800, 9_000_000 + bot.id));

    await link(webId, bot.id, bot.telegramId);

    // 500 + 200 left of the two grants; the person had one grant of 2 000 and spent 3 300.
    expect(await h.balance(webId)).toMatchObject({ credits: 0, welcome_credits: 2000 });
    const revoked = (await ledgerOf(webId)).filter((entry) => entry.reason === 'welcome_revoked');
    expect(revoked).toEqual([expect.objectContaining({ amount: '-700' })]);
  });
});

describe('a bot user read through from auth before user.registered reaches billing', () => {
  test('when the bot asks for the balance of a user it has just registered, then the welcome grant is already there', async () => {
    // auth and billing on separate exchanges: billing never hears auth's events and can only read the user through.
    const auth = await startTestService(authService, loadAuthConfig);
    const early = await startBillingHarness({ AUTH_URL: auth.url });
    try {
      await early.setWelcomeCredits(2000);
      const telegramId = nextTelegramId++;
      const registeredInAuth = await fetch(`${auth.url}${apiPath('postBotUsers')}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Bot-Key': early.botKey },
        body: JSON.stringify({ telegram_id: telegramId, first_name: 'Гость' }),
      });
      expect(registeredInAuth.status).toBe(200);

      const balance = await early.call('GET', `${apiPath('getBotBalance')}?telegram_id=${telegramId}`, { bot: true });
      expect(balance).toMatchObject({ status: 200, body: { credits: 2000, welcome_credits: 2000 } });
      const hold = await early.call('POST', apiPath('postBotHolds'), {
        bot: true,
        body: { telegram_id: telegramId, amount: 13 },
      });
      expect(hold.status).toBe(201);
    } finally {
      await early.stop();
      await auth.stop();
    }
  });
});
