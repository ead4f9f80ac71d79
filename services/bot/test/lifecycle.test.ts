import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { seenWithin } from '@gpt/kit/testing';
import { startBotHarness, type BotHarness } from './support/harness';

/**
 * The bot stopped while it is still connecting to Telegram (docs/bot.md, «Start and stop»): the stop ends
 * the connection's calls, auto-retry's waits included, instead of leaving them to go on talking to Telegram
 * (and keeping the process alive) after the bot has stopped.
 */
let harness: BotHarness;
beforeAll(async () => {
  harness = await startBotHarness();
});
afterAll(() => harness?.close());

/** Resolves when a call of one of `methods` reaches Telegram after the first `from` calls; rejects after `ms`. */
const callAfter = (from: number, methods: string[], ms: number) =>
  harness.telegram.waitFor(methods, (call) => harness.telegram.calls.indexOf(call) >= from, ms);

const CONNECTING = ['getMe', 'setMyCommands', 'deleteWebhook', 'getUpdates'];

describe('a stop while connecting', () => {
  test('stopped right after its start: the connection under way ends, and nothing reaches Telegram after the stop', async () => {
    await harness.restart();
    await harness.bot.close();
    const stoppedAt = harness.telegram.calls.length;
    await expect(callAfter(stoppedAt, CONNECTING, 1_500)).rejects.toThrow(/no matching/);
  });

  test('Telegram asks to wait (429) on the commands: the stop ends the wait, and the commands are not tried again', async () => {
    const { telegram } = harness;
    telegram.failNext('setMyCommands', { error_code: 429, retry_after: 2 });
    const mark = telegram.calls.length;
    await harness.restart();
    await seenWithin(
      5_000,
      async () => telegram.calls.slice(mark).some((call) => call.method === 'setMyCommands' && !call.ok),
      Boolean,
    );

    await harness.bot.close();
    const stoppedAt = telegram.calls.length;
    // auto-retry would have tried again 2 s after the 429; a stopped bot never does.
    await expect(callAfter(stoppedAt, CONNECTING, 3_000)).rejects.toThrow(/no matching/);
  }, 20_000);
});
