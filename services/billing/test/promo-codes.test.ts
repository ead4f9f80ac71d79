import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type {
  AdminPromoCodesResponse,
  PromoCode,
  PromoCodeDetailResponse,
  PublicTariff,
  RedeemPromoResponse,
} from '@gpt/contracts';
import { uniqueName } from '@gpt/kit/testing';
import { expireTariffs } from '../src/domain/expire-tariffs';
import { startBillingHarness, type BillingHarness } from './support/harness';

let h: BillingHarness;
let premium: PublicTariff;
let elite: PublicTariff;
let base: PublicTariff;

beforeAll(async () => {
  h = await startBillingHarness();
  const tariffs = await h.call<{ tariffs: PublicTariff[] }>('GET', '/api/tariffs');
  premium = tariffs.body.tariffs.find((tariff) => tariff.name === 'Premium')!;
  elite = tariffs.body.tariffs.find((tariff) => tariff.name === 'Elite')!;
  base = tariffs.body.tariffs.find((tariff) => tariff.name === 'Base')!;
});
afterAll(() => h.stop());

const DAY = 86_400_000;
const codeText = () =>
  uniqueName('promo')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-24);

async function createCode(overrides: Record<string, unknown> = {}): Promise<PromoCode> {
  const res = await h.call<{ promo_code: PromoCode }>('POST', '/api/admin/promo-codes', {
    token: h.adminToken(),
    body: { code: codeText(), kind: 'credits', credits: 500, max_uses: 10, ...overrides },
  });
  expect(res.status).toBe(201);
  return res.body.promo_code;
}

const redeem = (userId: number, code: string) =>
  h.call<RedeemPromoResponse & { error?: string; code?: string }>('POST', '/api/billing/promo-codes/redeem', {
    token: h.userToken(userId),
    body: { code },
  });

const promoEntries = (userId: number) =>
  h.billing.deps.db
    .selectFrom('ledger_entries')
    .select(['reason', 'amount', 'description', 'bucket'])
    .where('user_id', '=', userId)
    .where('reason', '=', 'promo_code')
    .orderBy('id')
    .execute();

describe('the admin promo codes screen', () => {
  test('a code is kept upper case and unique whatever the case it is typed in', async () => {
    const text = codeText();
    const created = await createCode({ code: text.toLowerCase() });
    expect(created).toMatchObject({
      code: text.toUpperCase(),
      kind: 'credits',
      credits: 500,
      used_count: 0,
      is_active: true,
    });

    const again = await h.call('POST', '/api/admin/promo-codes', {
      token: h.adminToken(),
      body: { code: text.toUpperCase(), kind: 'credits', credits: 1, max_uses: 1 },
    });
    expect(again).toMatchObject({
      status: 409,
      body: { code: 'promo_code_taken', error: 'Промокод с таким кодом уже существует' },
    });
  });

  test('bad input is a 400 in Russian: not letters and digits, a tariff code without its tariff, an end before the start', async () => {
    const bad = [
      { code: 'НЕ-ЛАТИНИЦА', kind: 'credits', credits: 1, max_uses: 1 },
      { code: codeText(), kind: 'tariff', max_uses: 1 },
      {
        code: codeText(),
        kind: 'credits',
        credits: 1,
        max_uses: 1,
        valid_from: new Date(Date.now() + DAY).toISOString(),
        valid_until: new Date().toISOString(),
      },
    ];
    for (const body of bad) {
      const res = await h.call<{ error: string }>('POST', '/api/admin/promo-codes', { token: h.adminToken(), body });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/[а-яА-Я]/);
    }
  });

  test('the list is searched, sorted and paged; a user is refused', async () => {
    const prefix = codeText().slice(0, 10).toUpperCase();
    for (const n of [1, 2, 3]) await createCode({ code: `${prefix}N${n}`, max_uses: n });
    const page = await h.call<AdminPromoCodesResponse>(
      'GET',
      `/api/admin/promo-codes?search=${prefix.toLowerCase()}&sortField=max_uses&sortOrder=-1&limit=2&page=1`,
      { token: h.adminToken() },
    );
    expect(page.body.total).toBe(3);
    expect(page.body.data.map((code) => code.max_uses)).toEqual([3, 2]);

    const userId = await h.registerUser();
    expect((await h.call('GET', '/api/admin/promo-codes', { token: h.userToken(userId) })).status).toBe(403);
  });

  test('edit and deactivate; a used code cannot be deleted nor limited below its uses, an unused one can be deleted', async () => {
    const code = await createCode({ max_uses: 3 });
    const first = await h.registerUser();
    const second = await h.registerUser();
    expect((await redeem(first, code.code)).status).toBe(200);
    expect((await redeem(second, code.code)).status).toBe(200);

    const view = await h.call<PromoCodeDetailResponse>('GET', `/api/admin/promo-codes/${code.id}`, {
      token: h.adminToken(),
    });
    expect(view.body.promo_code.used_count).toBe(2);
    expect(view.body.redemptions.map((use) => use.user_id)).toEqual([second, first]);
    expect(view.body.redemptions[0]).toMatchObject({ email: `user${second}@example.com` });

    const body = { code: code.code, kind: 'credits', credits: 700, max_uses: 3, is_active: false };
    const edited = await h.call<{ promo_code: PromoCode }>('PUT', `/api/admin/promo-codes/${code.id}`, {
      token: h.adminToken(),
      body,
    });
    expect(edited.body.promo_code).toMatchObject({ credits: 700, is_active: false });
    const below = await h.call('PUT', `/api/admin/promo-codes/${code.id}`, {
      token: h.adminToken(),
      body: { ...body, max_uses: 1 },
    });
    expect(below).toMatchObject({ status: 409, body: { code: 'promo_max_below_used' } });
    const deleted = await h.call('DELETE', `/api/admin/promo-codes/${code.id}`, { token: h.adminToken() });
    expect(deleted).toMatchObject({ status: 409, body: { code: 'promo_code_used' } });

    const unused = await createCode();
    expect((await h.call('DELETE', `/api/admin/promo-codes/${unused.id}`, { token: h.adminToken() })).status).toBe(200);
    expect((await h.call('GET', `/api/admin/promo-codes/${unused.id}`, { token: h.adminToken() })).status).toBe(404);
  });
});

describe('POST /api/billing/promo-codes/redeem', () => {
  test('a credits code adds its credits as the ledger entry «Промокод КОД»', async () => {
    const code = await createCode({ credits: 750 });
    const userId = await h.registerUser();

    const res = await redeem(userId, code.code.toLowerCase());

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'credits', credits: 750, message: expect.stringContaining('+750') });
    expect(await h.balance(userId)).toMatchObject({ credits: 750 });
    expect(await promoEntries(userId)).toEqual([
      { reason: 'promo_code', amount: '750', description: `Промокод ${code.code}`, bucket: 'credits' },
    ]);
  });

  test('a tariff code gives the tariff for its days with its included credits', async () => {
    const code = await createCode({ kind: 'tariff', credits: null, tariff_id: premium.id, tariff_days: 7 });
    const userId = await h.registerUser();

    const res = await redeem(userId, code.code);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'tariff', tariff_name: 'Premium' });
    const balance = await h.call<{ tariff: { id: number; end_date: string }; included_credits: number }>(
      'GET',
      '/api/billing/balance',
      { token: h.userToken(userId) },
    );
    expect(balance.body.tariff.id).toBe(premium.id);
    expect(balance.body.included_credits).toBe(premium.included_credits);
    const days = (Date.parse(balance.body.tariff.end_date) - Date.now()) / DAY;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect(await promoEntries(userId)).toEqual([
      expect.objectContaining({ description: `Промокод ${code.code}`, bucket: 'included' }),
    ]);
  });

  test.each([
    ['unknown', async () => 'NOSUCHCODE42', 404, 'promo_not_found', 'Промокод не найден'],
    [
      'deactivated',
      async () => (await createCode({ is_active: false })).code,
      404,
      'promo_not_found',
      'Промокод не найден',
    ],
    [
      'not started',
      async () => (await createCode({ valid_from: new Date(Date.now() + DAY).toISOString() })).code,
      409,
      'promo_not_started',
      'Промокод начнёт действовать',
    ],
    [
      'expired',
      async () =>
        (
          await createCode({
            valid_from: new Date(Date.now() - 2 * DAY).toISOString(),
            valid_until: new Date(Date.now() - DAY).toISOString(),
          })
        ).code,
      410,
      'promo_expired',
      'Срок действия промокода истёк',
    ],
    [
      'used up',
      async () => {
        const code = await createCode({ max_uses: 1 });
        expect((await redeem(await h.registerUser(), code.code)).status).toBe(200);
        return code.code;
      },
      410,
      'promo_used_up',
      'Промокод больше недоступен',
    ],
  ])(
    'when the code is %s, then the Russian refusal and nothing credited',
    async (_case, make, status, errorCode, text) => {
      const code = await make();
      const userId = await h.registerUser();

      const res = await redeem(userId, code);

      expect(res.status).toBe(status);
      expect(res.body.code).toBe(errorCode);
      expect(res.body.error).toContain(text);
      expect(await promoEntries(userId)).toEqual([]);
    },
  );

  test('a person redeems a code once: the second time is refused as already used', async () => {
    const code = await createCode();
    const userId = await h.registerUser();
    expect((await redeem(userId, code.code)).status).toBe(200);

    const again = await redeem(userId, code.code);

    expect(again).toMatchObject({
      status: 409,
      body: { code: 'promo_already_used', error: 'Вы уже активировали этот промокод' },
    });
    expect(await promoEntries(userId)).toHaveLength(1);
  });

  /** One person's bot account, which has just used `code`, and their site account, and how to link them. */
  async function usedInTheBot(code: string) {
    const telegramId = 620_000_000 + Math.floor(Math.random() * 1e7);
    const botId = await h.registerUser({ telegram_id: telegramId, email: null, source: 'telegram' });
    const webId = await h.registerUser({ telegram_id: null });
    const viaBot = await h.call('POST', '/api/bot/promo-codes/redeem', {
      bot: true,
      body: { telegram_id: telegramId, code },
    });
    expect(viaBot.status).toBe(200);
    const link = () =>
      h.deliver('accounts.linked', {
        user_id: webId,
        merged_user_id: botId,
        telegram_id: telegramId,
        linked_at: new Date().toISOString(),
      });
    return { webId, link };
  }

  test('a linked site and Telegram account are one person: a code the bot account used is used for the site account too', async () => {
    const code = await createCode();
    const { webId, link } = await usedInTheBot(code.code);

    await link();
    const again = await redeem(webId, code.code);

    expect(again).toMatchObject({ status: 409, body: { code: 'promo_already_used' } });
    expect(await h.balance(webId)).toMatchObject({ credits: 500 });
  });

  test('a code used on the site and in the bot before linking counts once after it: the second use is taken back', async () => {
    const code = await createCode();
    const { webId, link } = await usedInTheBot(code.code);
    expect((await redeem(webId, code.code)).status).toBe(200);

    const linked = await link();

    expect(await h.balance(webId)).toMatchObject({ credits: 500 });
    const revoked = await h.billing.deps.db
      .selectFrom('ledger_entries')
      .select(['reference', 'amount', 'reason'])
      .where('user_id', '=', webId)
      .where('reason', '=', 'promo_revoked')
      .execute();
    expect(revoked).toEqual([
      { reference: `merge:${linked.id}:promo:${code.id}`, amount: '-500', reason: 'promo_revoked' },
    ]);
  });

  test('20 people redeeming a code with 5 uses left at the same moment: exactly 5 succeed', async () => {
    const code = await createCode({ max_uses: 6 });
    expect((await redeem(await h.registerUser(), code.code)).status).toBe(200);
    const people = await Promise.all(Array.from({ length: 20 }, () => h.registerUser()));

    const answers = await Promise.all(people.map((userId) => redeem(userId, code.code)));

    expect(answers.filter((res) => res.status === 200)).toHaveLength(5);
    expect(answers.filter((res) => res.status === 410).every((res) => res.body.code === 'promo_used_up')).toBe(true);
    expect(answers.filter((res) => res.status === 410)).toHaveLength(15);
    const view = await h.call<PromoCodeDetailResponse>('GET', `/api/admin/promo-codes/${code.id}`, {
      token: h.adminToken(),
    });
    expect(view.body.promo_code.used_count).toBe(6);
    expect(view.body.redemptions).toHaveLength(6);
  });

  test('a tariff a promo code gives cannot be deleted', async () => {
    const created = await h.call<{ tariff: { id: number } }>('POST', '/api/admin/tariffs', {
      token: h.adminToken(),
      body: { name: uniqueName('Промо-тариф'), monthly_price: '10.00' },
    });
    await createCode({ kind: 'tariff', credits: null, tariff_id: created.body.tariff.id, tariff_days: 3 });

    const res = await h.call('DELETE', `/api/admin/tariffs/${created.body.tariff.id}`, { token: h.adminToken() });

    expect(res).toMatchObject({ status: 409, body: { code: 'tariff_has_promo_codes' } });
  });
});

describe('a tariff code over a paid tariff', () => {
  type TariffBalance = { tariff: { id: number; name: string; end_date: string | null }; included_credits: number };
  const tariffBalance = (userId: number) =>
    h.call<TariffBalance>('GET', '/api/billing/balance', { token: h.userToken(userId) }).then((res) => res.body);
  const tariffCode = (tariffId: number, days: number) =>
    createCode({ kind: 'tariff', credits: null, tariff_id: tariffId, tariff_days: days });
  const usedCount = async (id: number) =>
    (await h.call<PromoCodeDetailResponse>('GET', `/api/admin/promo-codes/${id}`, { token: h.adminToken() })).body
      .promo_code.used_count;

  test.each([
    ['Premium', () => premium],
    ['Base', () => base],
  ])(
    'when a %s code meets a paid Elite, then it is refused saying until when Elite runs, and the code is not used up',
    async (_name, offered) => {
      const userId = await h.registerUser();
      await h.payByCard(userId, { tariff_id: elite.id });
      const paid = await tariffBalance(userId);
      const code = await tariffCode(offered().id, 3);

      const res = await redeem(userId, code.code);

      const until = new Date(paid.tariff.end_date!).toLocaleDateString('ru-RU', {
        timeZone: 'Europe/Moscow',
        day: 'numeric',
        month: 'long',
      });
      expect(res).toMatchObject({ status: 409, body: { code: 'promo_tariff_below' } });
      expect(res.body.error).toContain(`У вас уже тариф Elite до ${until}`);
      expect(await tariffBalance(userId)).toEqual(paid);
      expect(await usedCount(code.id)).toBe(0);
      expect(await promoEntries(userId)).toEqual([]);
    },
  );

  test('when an Elite code meets a paid Premium, then Elite runs now and Premium comes back after it for the days it had left', async () => {
    const userId = await h.registerUser();
    await h.payByCard(userId, { tariff_id: premium.id });
    const paidEnd = Date.parse((await tariffBalance(userId)).tariff.end_date!);
    const code = await tariffCode(elite.id, 3);
    const redeemedAt = Date.now();

    const res = await redeem(userId, code.code);

    expect(res.status).toBe(200);
    expect(res.body.message).toContain('затем продолжится тариф «Premium»');
    const promoted = await tariffBalance(userId);
    expect(promoted).toMatchObject({ tariff: { name: 'Elite' }, included_credits: 70_000 + elite.included_credits });
    expect(Date.parse(promoted.tariff.end_date!) - redeemedAt).toBeGreaterThanOrEqual(3 * DAY - 5_000);
    expect(Date.parse(promoted.tariff.end_date!) - redeemedAt).toBeLessThanOrEqual(3 * DAY + 5_000);

    // The three days are over: the expiry job brings Premium back, with what was left of its month.
    const promoEnd = new Date(Date.now() - 1_000);
    await h.billing.deps.db
      .updateTable('balances')
      .set({ tariff_end_date: promoEnd })
      .where('user_id', '=', userId)
      .execute();
    await expireTariffs(h.billing.deps);

    const resumed = await tariffBalance(userId);
    expect(resumed).toMatchObject({ tariff: { name: 'Premium' }, included_credits: 70_000 });
    const expectedEnd = promoEnd.getTime() + (paidEnd - redeemedAt);
    expect(Math.abs(Date.parse(resumed.tariff.end_date!) - expectedEnd)).toBeLessThan(10_000);
  });
});
