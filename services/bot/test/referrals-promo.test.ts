import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { PaymentSucceededData } from '@gpt/contracts';
import { sandboxDecisionCall, uniqueName } from '@gpt/kit/testing';
import type { FakeUser } from '@gpt/telegram-sandbox/testing';
import { BOT_KEY, startBotStack, type BotStack } from './support/bot-stack';
import { conversations } from './support/conversation';

/** /start ref_CODE, /ref and /promo through the fake Telegram on the whole product; the inviter hears of a bonus. */
let bot: BotStack;
beforeAll(async () => {
  bot = await startBotStack({ BOT_PROMO_ATTEMPTS: '4' });
}, 90_000);
afterAll(() => bot?.close());

const { say, reply, payBy, buttonsOf, startedUser } = conversations(() => bot);
const serviceOf = (name: string) => bot.stack.services.find((service) => service.name === name)!;

/** The inviter's own /ref: their code from the bot link in the answer. */
async function referralCodeOf(user: FakeUser): Promise<{ code: string; text: string }> {
  const answer = await reply(user, 'Пригласить друга', say(user, '/ref'));
  const text = String(answer.params.text);
  const code = /https:\/\/t\.me\/test_gpt_bot\?start=ref_([A-Z0-9]+)/.exec(text)?.[1];
  expect(code).toBeDefined();
  return { code: code!, text };
}

/** The friend tops up through /buy and pays on the sandbox page; resolves once billing has handled the payment. */
async function payThroughBot(user: FakeUser, userId: number, roubles: number) {
  await reply(user, 'Пополнение и тарифы', say(user, '/buy'));
  await reply(user, 'Для чека нужен e-mail', await payBy(user, `buy:topup:${roubles}`));
  const offer = await reply(user, `Сумма: ${roubles},00 ₽`, say(user, `payer.${user.id}@example.com`));
  const decision = sandboxDecisionCall(buttonsOf(offer)[0]!.url!, 'succeeded');
  const handled = serviceOf('billing').deps.bus.waitFor(
    'acked',
    (event) => event.type === 'payment.succeeded' && (event.data as PaymentSucceededData).user_id === userId,
    20_000,
  );
  const paid = await bot.api('POST', decision.path, { body: decision.body });
  expect(paid.status).toBe(200);
  await handled;
}

describe('a friend who starts the bot through the inviter’s link and pays', () => {
  test('earns the inviter 10 % of the credits bought, told in the inviter’s chat, shown by /ref', async () => {
    const { user: inviter } = await startedUser(0);
    const { code, text } = await referralCodeOf(inviter);
    expect(text).toContain('Приглашено: <b>0</b>');
    expect(text).toMatch(/Ссылка на сайт: http:\/\/[^\s]+\/\?ref=/);

    const { user: friend, userId: friendId } = await startedUser(0, {}, `/start ref_${code}`);
    const mark = bot.telegram.calls.length;
    await payThroughBot(friend, friendId, 100);

    const told = await reply(inviter, 'Бонус за друга', mark);
    // Numbers are grouped with a no-break space, as Intl writes them in Russian.
    expect(told.params.text).toMatch(/\+1\s000 кредитов/);
    const after = await referralCodeOf(inviter);
    expect(after.text).toContain('Приглашено: <b>1</b>');
    expect(after.text).toContain('Оплатили: <b>1</b>');
    expect(after.text).toMatch(/Заработано: <b>1\s000 кредитов<\/b>/);
    expect((await referralCodeOf(friend)).text).toContain('Заработано: <b>0 кредитов</b>');
  });
});

describe('/promo КОД', () => {
  test('gives the code’s credits once, and answers each refusal in Russian', async () => {
    const codeText = uniqueName('BOT')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(-20)
      .toUpperCase();
    const created = await bot.api('POST', '/api/admin/promo-codes', {
      token: bot.adminToken,
      body: { code: codeText, kind: 'credits', credits: 500, max_uses: 10 },
    });
    expect(created.status).toBe(201);
    const { user } = await startedUser(0);

    await reply(user, 'Напишите код после команды', say(user, '/promo'));
    const redeemed = await reply(user, 'активирован', say(user, `/promo ${codeText.toLowerCase()}`));
    expect(redeemed.params.text).toContain('+500 кредитов');
    await reply(user, 'Вы уже активировали этот промокод', say(user, `/promo ${codeText}`));
    await reply(user, 'Промокод не найден', say(user, '/promo NOSUCHCODE1'));
    const balance = await bot.api<{ credits: number }>('GET', `/api/bot/balance?telegram_id=${user.id}`, {
      botKey: BOT_KEY,
    });
    expect(balance.body.credits).toBe(500);
  });

  test('guessing is slowed down: past BOT_PROMO_ATTEMPTS tries the bot asks to wait', async () => {
    const { user } = await startedUser(0);
    for (let n = 0; n < 4; n++) await reply(user, 'Промокод не найден', say(user, `/promo GUESS${n}`));
    await reply(user, 'Слишком много попыток', say(user, '/promo GUESS5'));
  });
});
