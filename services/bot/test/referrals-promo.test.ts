import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { FakeUser } from '@gpt/telegram-sandbox/testing';
import { conversations } from './support/conversation';
import { startBotHarness, type BotHarness } from './support/harness';

/**
 * /start ref_CODE, /ref and /promo as the bot handles them; the inviter hears of a bonus. Billing's
 * rules (10 % of what a friend buys, a code once per person) are billing's tests.
 */
let bot: BotHarness;
beforeAll(async () => {
  bot = await startBotHarness({ BOT_PROMO_ATTEMPTS: '4' });
});
afterAll(() => bot?.close());

const { say, reply, startedUser } = conversations(() => bot);

/** The user's own /ref: their code from the bot link in the answer. */
async function referralCodeOf(user: FakeUser): Promise<{ code: string; text: string }> {
  const answer = await reply(user, 'Пригласить друга', say(user, '/ref'));
  const text = String(answer.params.text);
  const code = /https:\/\/t\.me\/test_gpt_bot\?start=ref_([A-Z0-9]+)/.exec(text)?.[1];
  expect(code).toBeDefined();
  return { code: code!, text };
}

describe('a friend who starts the bot through the inviter’s link and pays', () => {
  test('is the inviter’s friend; the inviter’s bonus is told in their chat and shown by /ref', async () => {
    const { user: inviter, userId: inviterId } = await startedUser(0);
    const { code, text } = await referralCodeOf(inviter);
    expect(text).toContain('Приглашено: <b>0</b>');
    expect(text).toMatch(/Ссылка на сайт: http:\/\/[^\s]+\/\?ref=/);

    const { user: friend } = await startedUser(0, {}, `/start ref_${code}`);
    expect(bot.services.account(friend.id).referredBy).toBe(inviterId);
    const mark = bot.telegram.calls.length;
    await bot.deliver('referral.rewarded', bot.services.referralRewarded(friend.id, 1000));

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
    bot.services.addPromoCode('SPRING500', 500);
    const { user } = await startedUser(0);

    await reply(user, 'Напишите код после команды', say(user, '/promo'));
    const redeemed = await reply(user, 'активирован', say(user, '/promo spring500'));
    expect(redeemed.params.text).toContain('Промокод SPRING500 активирован: +500 кредитов');
    await reply(user, 'Вы уже активировали этот промокод', say(user, '/promo SPRING500'));
    await reply(user, 'Промокод не найден', say(user, '/promo NOSUCHCODE1'));
    expect(bot.services.account(user.id).credits).toBe(500);
  });

  test('guessing is slowed down: past BOT_PROMO_ATTEMPTS tries the bot asks to wait', async () => {
    const { user } = await startedUser(0);
    for (let n = 0; n < 4; n++) await reply(user, 'Промокод не найден', say(user, `/promo GUESS${n}`));
    await reply(user, 'Слишком много попыток', say(user, '/promo GUESS5'));
  });
});
