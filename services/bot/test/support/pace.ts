/**
 * The bot's tests run Telegram's pace ten times as fast, on both sides: the bot's throttler
 * (TELEGRAM_TEST_SPEEDUP) and the sandbox's flood limits. Every limit still holds, in proportion, so
 * a bot that breaks the pace meets its 429 — in a tenth of the time a real second would take.
 */
export const TELEGRAM_SPEEDUP = 10;

export const SPEEDUP_ENV = { TELEGRAM_TEST_SPEEDUP: String(TELEGRAM_SPEEDUP) };
