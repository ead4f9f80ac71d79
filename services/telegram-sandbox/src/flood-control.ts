import { BotApiError } from './params';

/**
 * Telegram's flood limits for messages (docs/bot.md, «The sandbox keeps Telegram's rules»): about one
 * message a second to one chat and 30 a second in all. Each is a token bucket: a chat may send a short
 * burst, then one message a second; beyond it Telegram answers 429 with `retry_after`.
 */
export interface FloodLimits {
  /** Messages a chat may send at once before the one-a-second pace applies. */
  chatBurst: number;
  chatPerSecond: number;
  /** Messages the bot may send at once in all, and a second after that. */
  totalBurst: number;
  totalPerSecond: number;
}

export const TELEGRAM_FLOOD_LIMITS: FloodLimits = {
  chatBurst: 3,
  chatPerSecond: 1,
  totalBurst: 30,
  totalPerSecond: 30,
};

/**
 * Telegram's limits `speedup` times as fast, a second's burst included: tests run a bot whose throttler
 * is sped up alike (TELEGRAM_TEST_SPEEDUP), so a bot that breaks the pace still meets a 429, sooner.
 */
export const fasterFloodLimits = (limits: FloodLimits, speedup: number): FloodLimits => ({
  chatBurst: limits.chatBurst,
  chatPerSecond: limits.chatPerSecond * speedup,
  totalBurst: limits.totalBurst * speedup,
  totalPerSecond: limits.totalPerSecond * speedup,
});

/** The methods Telegram counts as messages: what appears in a chat, sent or edited. */
const MESSAGE_METHODS = /^(send(?!ChatAction)[A-Z]\w*|edit[A-Z]\w*|copyMessages?|forwardMessages?)$/;

export const isMessageMethod = (method: string) => MESSAGE_METHODS.test(method);

/** Telegram's answer to a message sent too soon: 429 and how many seconds to wait. */
export const tooManyRequests = (retryAfter: number) =>
  new BotApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });

interface Bucket {
  tokens: number;
  at: number;
}

export interface FloodControl {
  /** Refuses a message of `chatId` with Telegram's 429 and how long to wait when either bucket is empty. */
  check(method: string, chatId: number | undefined): void;
  /** Takes the message from both buckets once it was sent (a refused call costs nothing). */
  spend(method: string, chatId: number | undefined): void;
}

export function floodControl(limits: FloodLimits, now: () => number = Date.now): FloodControl {
  const chats = new Map<number, Bucket>();
  const total: Bucket = { tokens: limits.totalBurst, at: now() };

  const refill = (bucket: Bucket, burst: number, perSecond: number, at: number) => {
    bucket.tokens = Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * perSecond);
    bucket.at = at;
  };
  const waitSec = (bucket: Bucket, perSecond: number) =>
    bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));

  /** The chat's and the total bucket, filled up to now; undefined for a call that is no message. */
  function buckets(method: string, chatId: number | undefined): [Bucket, Bucket] | undefined {
    if (!isMessageMethod(method) || chatId === undefined) return undefined;
    const at = now();
    let chat = chats.get(chatId);
    if (!chat) chats.set(chatId, (chat = { tokens: limits.chatBurst, at }));
    refill(chat, limits.chatBurst, limits.chatPerSecond, at);
    refill(total, limits.totalBurst, limits.totalPerSecond, at);
    return [chat, total];
  }

  return {
    check(method, chatId) {
      const found = buckets(method, chatId);
      if (!found) return;
      const retryAfter = Math.max(waitSec(found[0], limits.chatPerSecond), waitSec(found[1], limits.totalPerSecond));
      if (retryAfter > 0) throw tooManyRequests(retryAfter);
    },
    spend(method, chatId) {
      for (const bucket of buckets(method, chatId) ?? []) bucket.tokens -= 1;
    },
  };
}
