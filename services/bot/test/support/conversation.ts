import type { FakeUser } from '@gpt/telegram-sandbox/testing';
import type { BotStack } from './bot-stack';
import { deposit, userIdOf } from './bot-stack';
import type { BotHarness } from './harness';
import { botSays, telegramUser } from './telegram-users';

/**
 * A person in Telegram talking to the bot under test (alone on the harness, or in the whole product):
 * what they do, and waiting for the bot's reply.
 */
export function conversations(stack: () => BotHarness | BotStack) {
  /** The user sends a text or a command; answers the mark to wait for the bot's reply from. */
  const say = (user: FakeUser, text: string): number => {
    const mark = stack().telegram.calls.length;
    if (text.startsWith('/')) stack().telegram.sendCommand(user, text);
    else stack().telegram.sendText(user, text);
    return mark;
  };

  /** The bot's reply to what the user did at `mark`. */
  const reply = (user: FakeUser, pattern: RegExp | string, mark: number, timeoutMs?: number) =>
    botSays(stack().telegram, user.id, pattern, mark, timeoutMs);

  /** Presses an inline button of the bot's latest message whose text contains `messageText`. */
  const press = (user: FakeUser, messageText: string, callbackData: string): number => {
    const message = stack()
      .telegram.chatLog(user.id)
      .filter((entry) => entry.from === 'bot' && entry.text.includes(messageText))
      .at(-1);
    if (!message) throw new Error(`no bot message with «${messageText}» in chat ${user.id}`);
    const mark = stack().telegram.calls.length;
    stack().telegram.pressButton(user, message.message_id, callbackData);
    return mark;
  };

  /**
   * In /buy's answer, chooses the package or tariff of a way-to-pay button (`buy:…` by card,
   * `stars:…` in stars), then presses that way; answers the mark of the second press.
   */
  const payBy = async (user: FakeUser, wayData: string): Promise<number> => {
    const item = wayData.replace(/^(buy|stars):/, 'pay:');
    await reply(user, 'Как оплатить?', press(user, 'Пополнение и тарифы', item));
    return press(user, 'Как оплатить?', wayData);
  };

  /** The buttons of a sent message, flattened. */
  const buttonsOf = (call: { params: Record<string, unknown> }) =>
    (
      (call.params.reply_markup as { inline_keyboard?: { text: string; url?: string; callback_data?: string }[][] })
        ?.inline_keyboard ?? []
    )
      .flat()
      .map((button) => ({ ...button, text: button.text.replace(/\u00a0/g, ' ') }));

  /** A user who pressed /start (or a deep link's `/start payload`) and was given credits. */
  async function startedUser(credits: number, overrides: Partial<FakeUser> = {}, start = '/start') {
    const user = telegramUser(overrides);
    await reply(user, 'Здравствуйте', say(user, start));
    const bot = stack();
    if ('services' in bot) {
      const account = bot.services.account(user.id);
      account.credits += credits;
      return { user, userId: account.user.id };
    }
    const userId = await userIdOf(bot, user.id);
    if (credits > 0) await deposit(bot, userId, credits);
    return { user, userId };
  }

  return { say, reply, press, payBy, buttonsOf, startedUser };
}
