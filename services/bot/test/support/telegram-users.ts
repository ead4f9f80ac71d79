import { parseTelegramHtml, type FakeTelegram, type FakeUser, type RecordedCall } from '@gpt/telegram-sandbox/testing';

/** Telegram users and what the bot says to them, for tests on the harness and on the whole product alike. */

let nextUserId = 7_000_000;
/** A Telegram user no other test has used. */
export function telegramUser(overrides: Partial<FakeUser> = {}): FakeUser {
  nextUserId += 1 + Math.floor(Math.random() * 1000);
  return {
    id: nextUserId,
    first_name: 'Иван',
    last_name: 'Петров',
    username: `user${nextUserId}`,
    language_code: 'ru',
    ...overrides,
  };
}

/** The text of a sent or edited message as the user reads it (HTML parsed as Telegram does). */
const textOf = (call: RecordedCall) => {
  const raw = String(call.params.text ?? call.params.caption ?? '');
  // Numbers are grouped with no-break spaces (ru-RU); tests write plain ones.
  return (call.params.parse_mode === 'HTML' ? parseTelegramHtml(raw).text : raw).replace(/\u00a0/g, ' ');
};

/**
 * Waits for the bot to send or edit into `chatId` a text matching `pattern`, among the calls from
 * index `since` of `telegram.calls` on (take `telegram.calls.length` before making the user act).
 */
export function botSays(
  telegram: FakeTelegram,
  chatId: number,
  pattern: RegExp | string,
  since = 0,
  timeoutMs = 20_000,
) {
  const matches = (call: RecordedCall) =>
    Number(call.params.chat_id) === chatId &&
    telegram.calls.indexOf(call) >= since &&
    (typeof pattern === 'string' ? textOf(call).includes(pattern) : pattern.test(textOf(call)));
  return telegram.waitFor(['sendMessage', 'editMessageText', 'sendPhoto'], matches, timeoutMs);
}
