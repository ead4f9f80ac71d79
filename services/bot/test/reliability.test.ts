import { describe, expect, test } from '@jest/globals';
import { freePort } from '@gpt/kit/testing';
import { startFakeTelegram, type FakeUser } from '@gpt/telegram-sandbox/testing';
import { ServiceProcess } from '../../../deploy/test/faults/service-process';
import { eventually } from '../../../deploy/test/support/async';
import { balanceOf, charged, deposit, historyOf, userIdOf } from './support/bot-stack';
import { botProcessesOnProduct } from './support/bot-process';
import { botSays, telegramUser } from './support/telegram-users';

/**
 * The bot as its own process (as production runs it) on the whole product: killed mid-answer and
 * started again, stopped with SIGTERM mid-answer, and two replicas in webhook mode taking turns at
 * one chat's updates. Telegram and the model API are fakes on localhost.
 */
const bots = botProcessesOnProduct('bot_process');
const startBot = (env: Record<string, string> = {}) => bots.startBot({ BOT_STREAM_EDIT_INTERVAL_MS: '50', ...env });

async function paidUser(credits: number): Promise<{ user: FakeUser; userId: number }> {
  const user = telegramUser();
  const mark = bots.telegram.calls.length;
  bots.telegram.sendCommand(user, '/start');
  await botSays(bots.telegram, user.id, 'Здравствуйте', mark);
  const userId = await userIdOf(bots.product, user.id);
  await deposit(bots.product, userId, credits);
  return { user, userId };
}

/** Sends a question and waits until its answer has begun streaming into the placeholder. */
async function askAndWaitForStream(user: FakeUser, question: string) {
  const mark = bots.telegram.calls.length;
  bots.telegram.sendText(user, question);
  await botSays(bots.telegram, user.id, 'Ответ', mark, 30_000);
}

describe('a bot process that dies or stops mid-answer', () => {
  test('killed (SIGKILL) while streaming and started again: the placeholder says so, no credits stay held, nothing is charged, the next question is answered', async () => {
    const bot = await startBot();
    const { user, userId } = await paidUser(10_000);
    bots.product.openai.slow(1_500);
    await askAndWaitForStream(user, 'Расскажи длинную историю');
    expect((await balanceOf(bots.product, user.id)).held_credits).toBeGreaterThan(0);

    await bot.kill('SIGKILL');
    bots.product.openai.slow(0);
    await bot.restart();

    await botSays(bots.telegram, user.id, 'Ответ был прерван', 0, 40_000);
    expect(await balanceOf(bots.product, user.id)).toMatchObject({ held_credits: 0, available_credits: 10_000 });
    expect(await historyOf(bots.product, userId)).toEqual([]);

    const mark = bots.telegram.calls.length;
    bots.telegram.sendText(user, 'Ещё раз');
    await botSays(bots.telegram, user.id, 'Ответ на: Ещё раз', mark, 30_000);
    await bot.remove();
  }, 180_000);

  test('stopped (SIGTERM) while streaming: the answer completes and is charged once before the process exits', async () => {
    const bot = await startBot();
    const { user, userId } = await paidUser(10_000);
    // About 12 s of answer: longer than a stop used to wait, within BOT_SHUTDOWN_GRACE_SEC (20 s).
    bots.product.openai.slow(2_500);
    await askAndWaitForStream(user, 'Ответь до конца');

    await bot.kill('SIGTERM');
    bots.product.openai.slow(0);

    await botSays(bots.telegram, user.id, /^Ответ на: Ответь до конца$/, 0, 30_000);
    await charged(bots.product, userId);
    expect(await historyOf(bots.product, userId)).toEqual([expect.objectContaining({ status: 'success' })]);
    expect((await balanceOf(bots.product, user.id)).held_credits).toBe(0);
  }, 180_000);
});

describe('Telegram failing for a moment', () => {
  test('429 and 5xx on sendMessage and editMessageText: one complete answer, charged once', async () => {
    const bot = await startBot();
    const { user, userId } = await paidUser(10_000);
    const paid = charged(bots.product, userId);
    bots.telegram.failNext('sendMessage', { error_code: 429, retry_after: 1 });
    bots.telegram.failNext('sendMessage', { error_code: 500 });
    bots.telegram.failNext('editMessageText', { error_code: 500 });
    bots.telegram.failNext('editMessageText', { error_code: 429, retry_after: 1 });
    const mark = bots.telegram.calls.length;
    bots.telegram.sendText(user, 'Несмотря ни на что');
    await botSays(bots.telegram, user.id, /^Ответ на: Несмотря ни на что$/, mark, 30_000);
    await paid;
    const placeholders = bots.telegram.calls
      .slice(mark)
      .filter((call) => call.ok && call.method === 'sendMessage' && Number(call.params.chat_id) === user.id);
    expect(placeholders).toHaveLength(1);
    expect(await historyOf(bots.product, userId)).toHaveLength(1);
    await bot.remove();
  }, 120_000);
});

describe('webhook mode with two replicas', () => {
  const SECRET = 'replica-webhook-secret-0123456789';

  test('the same update posted twice is handled once, and one chat’s updates spread over both replicas are answered in order', async () => {
    const port = await freePort();
    // Telegram (the fake) posts to the first replica; the test also posts to both itself.
    const env = {
      TELEGRAM_WEBHOOK_URL: `http://127.0.0.1:${port}/api/telegram/webhook`,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
    };
    const replicas = [await startBot({ ...env, PORT: String(port) }), await startBot(env)];
    const { user } = await paidUser(50_000);
    const post = (replica: ServiceProcess, update: unknown) =>
      fetch(`${replica.url}/api/telegram/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': SECRET },
        body: JSON.stringify(update),
      });
    let nextUpdate = 900_000_000 + Math.floor(Math.random() * 1_000_000);
    const updateOf = (text: string) => ({
      update_id: (nextUpdate += 1),
      message: {
        message_id: nextUpdate,
        date: Math.floor(Date.now() / 1000),
        chat: { id: user.id, type: 'private', first_name: user.first_name },
        from: { id: user.id, is_bot: false, first_name: user.first_name },
        text,
      },
    });

    bots.product.openai.slow(100);
    const questions = ['Первый', 'Второй', 'Третий', 'Четвёртый'];
    const mark = bots.telegram.calls.length;
    const updates = questions.map(updateOf);
    // As Telegram delivers them: one after another, each once it has its 200, here to alternating replicas,
    // and the first once more (a redelivery).
    const answers: number[] = [];
    for (const [index, update] of [...updates, updates[0]].entries()) {
      answers.push((await post(replicas[index % 2]!, update)).status);
    }
    expect(answers).toEqual([200, 200, 200, 200, 200]);

    for (const question of questions) await botSays(bots.telegram, user.id, `Ответ на: ${question}`, mark, 30_000);
    bots.product.openai.slow(0);
    const finals = bots.telegram.calls
      .slice(mark)
      .filter((call) => call.ok && call.method === 'editMessageText' && Number(call.params.chat_id) === user.id)
      .map((call) => String(call.params.text))
      .filter((text) => questions.some((question) => text === `Ответ на: ${question}`));
    expect(finals).toEqual(questions.map((question) => `Ответ на: ${question}`));
  }, 180_000);
});

describe('long polling', () => {
  test('a second process with the same token does not poll: it says why, waits, and takes over once the first stops', async () => {
    // A token of its own: the bots of the tests above still poll with the shared one.
    const own = await startFakeTelegram({ token: '7000000002:AAH-fake_telegram_token_for_the_lock' });
    try {
      const env = { TELEGRAM_BOT_TOKEN: own.token, TELEGRAM_API_URL: own.apiUrl };
      const first = await startBot(env);
      // It holds the lock once it drops the webhook, right before its first long poll (a poll is recorded
      // when it is answered: with nothing to deliver, 30 s later).
      await own.waitFor('deleteWebhook', undefined, 30_000);
      const second = await startBot(env);
      await eventually(async () =>
        expect(second.log).toContain('another process is already long-polling Telegram with this bot token'),
      );
      expect(first.log).not.toContain('another process is already long-polling');

      await first.kill('SIGTERM');
      const user = telegramUser();
      const mark = own.calls.length;
      own.sendCommand(user, '/start');
      await botSays(own, user.id, 'Здравствуйте', mark, 30_000);
    } finally {
      await own.close();
    }
  }, 120_000);
});
