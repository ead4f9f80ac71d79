import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Update } from 'grammy/types';
import {
  BotApiError,
  createSandboxBotApi,
  fasterFloodLimits,
  TELEGRAM_FLOOD_LIMITS,
  type BotApiCall,
  type FloodLimits,
  type SandboxBotApi,
  type SandboxTimeouts,
  type SandboxUser,
} from './index';
import { isMessageMethod, tooManyRequests } from './flood-control';

export { parseTelegramHtml } from './html';
export { TELEGRAM_FLOOD_LIMITS, type FloodLimits };
export type { ChatLogEntry, StoredFileInfo } from './types';

/** A Telegram user as the test plays them; the private chat with the bot has the user's id. */
export type FakeUser = SandboxUser;

/** One Bot API call the fake answered, in arrival order. */
export type RecordedCall = BotApiCall;

export type TelegramFault = { error_code: 429; retry_after: number } | { error_code: 500 };

export interface FakeTelegram extends Omit<SandboxBotApi, 'handle' | 'pressButton' | 'close'> {
  /** For grammY's `client.apiRoot`. */
  apiUrl: string;
  calls: RecordedCall[];
  /** Throws when the message has no button with this callback_data. */
  pressButton(from: FakeUser, messageId: number, data: string): Update;
  /**
   * The first successful call (past or future) of the method, or of any of the methods, matching
   * `predicate`; rejects after `timeoutMs` listing what was called instead.
   */
  waitFor(
    method: string | string[],
    predicate?: (call: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  /**
   * The next call of `method` fails this way (several calls queue several failures); a 429 then refuses
   * every message (sent or edited, any chat) until its `retry_after` has passed, as Telegram's flood wait does.
   */
  failNext(method: string, fault: TelegramFault): void;
  close(): Promise<void>;
}

const DEFAULT_TOKEN = '7000000001:AAH-fake_telegram_token_for_tests_0';

export interface FakeTelegramOptions {
  token?: string;
  /** Telegram's flood limits, on unless a test turns them off (`false`) or sets its own. */
  floodLimits?: FloodLimits | false;
  /** Telegram's flood limits this many times as fast (for a bot whose throttler is sped up alike). */
  speedup?: number;
  timeouts?: Partial<SandboxTimeouts>;
}

/**
 * The sandbox Bot API on a localhost port of its own, with every rule of Telegram's it keeps on
 * (docs/bot.md), recording every call so the test can wait for one and read what the users saw,
 * and failing calls on demand.
 */
export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const calls: RecordedCall[] = [];
  const callWaiters = new Set<{
    methods: string[];
    predicate: (call: RecordedCall) => boolean;
    resolve: (call: RecordedCall) => void;
  }>();
  const faults = new Map<string, TelegramFault[]>();
  /** Until when (ms since the epoch) a 429 asked for by failNext holds every message. */
  let floodWaitUntil = 0;

  const telegram = createSandboxBotApi({
    token: options.token ?? DEFAULT_TOKEN,
    name: { first_name: 'Test GPT', username: 'test_gpt_bot' },
    ...(options.floodLimits === false
      ? {}
      : { floodLimits: options.floodLimits ?? fasterFloodLimits(TELEGRAM_FLOOD_LIMITS, options.speedup ?? 1) }),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    observer: {
      received: (call) => calls.push(call),
      fault(call) {
        const fault = faults.get(call.method)?.shift();
        if (fault?.error_code === 429) {
          floodWaitUntil = Math.max(floodWaitUntil, call.at + fault.retry_after * 1000);
          return tooManyRequests(fault.retry_after);
        }
        if (fault) return new BotApiError(500, 'Internal Server Error');
        // As Telegram's flood wait: every message until the 429's retry_after has passed is refused too.
        if (call.at < floodWaitUntil && isMessageMethod(call.method))
          return tooManyRequests(Math.ceil((floodWaitUntil - call.at) / 1000));
        return undefined;
      },
      answered(call) {
        for (const waiter of callWaiters)
          if (waiter.methods.includes(call.method) && waiter.predicate(call)) waiter.resolve(call);
      },
    },
  });

  const server = createServer((req, res) => void telegram.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: telegram.token,
    me: telegram.me,
    calls,
    get commands() {
      return telegram.commands;
    },
    get webhook() {
      return telegram.webhook;
    },
    get allowedUpdates() {
      return telegram.allowedUpdates;
    },
    blockBot: telegram.blockBot,
    unblockBot: telegram.unblockBot,
    addFile: telegram.addFile,
    setProfilePhoto: telegram.setProfilePhoto,
    file: telegram.file,
    sendText: telegram.sendText,
    sendCommand: telegram.sendCommand,
    sendPhoto: telegram.sendPhoto,
    sendDocument: telegram.sendDocument,
    sendVoice: telegram.sendVoice,
    sendAudio: telegram.sendAudio,
    chatLog: telegram.chatLog,
    chatVersion: telegram.chatVersion,
    chatChange: telegram.chatChange,
    payInvoice: telegram.payInvoice,
    paySubscriptionLink: telegram.paySubscriptionLink,
    renewSubscription: telegram.renewSubscription,
    subscriptions: telegram.subscriptions,
    redeliver: telegram.redeliver,
    charges: telegram.charges,
    forgetChat: telegram.forgetChat,

    pressButton(from, messageId, data) {
      const update = telegram.pressButton(from, messageId, data);
      if (!update)
        throw new Error(`message ${messageId} in chat ${from.id} has no button with callback_data "${data}"`);
      return update;
    },

    waitFor(method, predicate = () => true, timeoutMs = 5000) {
      const methods = typeof method === 'string' ? [method] : method;
      const found = calls.find((call) => call.ok && methods.includes(call.method) && predicate(call));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          methods,
          predicate,
          resolve: (call: RecordedCall) => {
            clearTimeout(timer);
            callWaiters.delete(waiter);
            resolve(call);
          },
        };
        const timer = setTimeout(() => {
          callWaiters.delete(waiter);
          const seen = calls.filter((call) => methods.includes(call.method)).map((call) => JSON.stringify(call.params));
          reject(new Error(`no matching ${methods.join('/')} call in ${timeoutMs} ms; calls: [${seen.join(', ')}]`));
        }, timeoutMs);
        callWaiters.add(waiter);
      });
    },

    failNext(method, fault) {
      faults.set(method, [...(faults.get(method) ?? []), fault]);
    },

    async close() {
      await telegram.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
