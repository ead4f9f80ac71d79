import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareFn, Transformer } from 'grammy';

/** Telegram's documented limits: about 30 messages a second in all, one a second in a private chat, 20 a minute in a group. */
export const TELEGRAM_LIMITS = { perSecond: 30, privateChatMs: 1000, groupChatMs: 3000 } as const;

export type ThrottleLimits = { perSecond: number; privateChatMs: number; groupChatMs: number };

/** The limits `speedup` times as fast: for tests against a Bot API whose limits are sped up alike (TELEGRAM_TEST_SPEEDUP). */
export const fasterLimits = (limits: ThrottleLimits, speedup: number): ThrottleLimits => ({
  perSecond: limits.perSecond * speedup,
  privateChatMs: limits.privateChatMs / speedup,
  groupChatMs: limits.groupChatMs / speedup,
});

const previewing = new AsyncLocalStorage<true>();
const replying = new AsyncLocalStorage<{ answered: boolean }>();

/**
 * Handles an update with its first message (edit, invoice…) to the chat marked as the first sign of
 * life: the throttler sends it before anything else waiting, other chats' final answers included.
 */
export const firstReplyFirst: MiddlewareFn = (_ctx, next) => replying.run({ answered: false }, next);

/**
 * Runs `call` with its Bot API calls marked as previews: intermediate streaming edits (editMessageText)
 * that yield to every other message and may be replaced by a newer edit of the same message.
 */
export function asPreview<T>(call: () => Promise<T>): Promise<T> {
  return previewing.run(true, call);
}

type Call = Parameters<Transformer>[0];
type Signal = Parameters<Transformer>[3];
type Payload = Record<string, unknown> & { chat_id?: unknown; message_id?: unknown };
type Waiter = { resolve: (result: unknown) => void; reject: (err: unknown) => void };

interface Job {
  method: string;
  payload: Payload;
  signal: Signal;
  chat: Chat;
  /** `chat:message` of a preview edit, the key it is coalesced by. */
  preview: string | undefined;
  waiters: Waiter[];
}

interface Chat {
  id: string;
  gapMs: number;
  /** A call of this chat is at Telegram; the next waits for it (so edits land in the order they were made). */
  busy: boolean;
  /** The chat's next call is not sent before this (ms since the epoch). */
  nextAt: number;
  /** Queued calls of this chat; the chat is forgotten when none is queued or in flight and its gap has passed. */
  queued: number;
}

/** What a preview that was replaced by a newer edit, or by the final one, resolves with (editMessageText's `true`). */
const SKIPPED = { ok: true, result: true } as const;

/**
 * A grammY API transformer that keeps Telegram's limits (`limits`: calls a second in all, the gap
 * between two calls of one chat) with three lanes, each served only when no call of the one before
 * can go, each in the order its calls were made. First: an update's first message to its chat (see
 * firstReplyFirst: the placeholder of an answer, the reply to a command). Urgent: every other call
 * naming a chat that is not a preview (final edits, invoices, notices). Previews (calls made inside
 * asPreview, the intermediate streaming edits): a newer preview of a message replaces the queued
 * older one (whose promise resolves with the newer's result), and any other call naming the message
 * (its final edit) drops its queued preview (that promise resolves with `true`). Chat
 * actions (typing…) are hints: sent at once when nothing waits, dropped otherwise, never counted
 * against a chat. Calls naming no chat (getUpdates, answerCallbackQuery, answerPreCheckoutQuery)
 * pass at once: Telegram does not count them as messages.
 *
 * One call of a chat is at Telegram at a time, its retries included: install it after auto-retry,
 * so it wraps it and a retried preview can never land after the final edit.
 */
export function priorityThrottler(limits: ThrottleLimits = TELEGRAM_LIMITS): Transformer {
  const first: Job[] = [];
  const urgent: Job[] = [];
  const previews: Job[] = [];
  const lanes = [first, urgent, previews];
  const waiting = () => first.length + urgent.length + previews.length;
  const previewOf = new Map<string, Job>();
  const chats = new Map<string, Chat>();
  /** When the last `perSecond` calls were sent, oldest first (a sliding one-second window). */
  const sent: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  let wakeAt = Infinity;
  let prunedAt = 0;

  const room = (now: number) => {
    while (sent.length > 0 && now - sent[0]! >= 1000) sent.shift();
    return sent.length < limits.perSecond;
  };

  const chatOf = (chatId: unknown): Chat => {
    const id = String(chatId);
    let chat = chats.get(id);
    if (!chat) {
      const group = id.startsWith('-') || id.startsWith('@');
      chat = { id, gapMs: group ? limits.groupChatMs : limits.privateChatMs, busy: false, nextAt: 0, queued: 0 };
      chats.set(id, chat);
    }
    return chat;
  };

  /** Forgets, once a second at most, the chats with nothing queued or in flight whose gap has passed. */
  const prune = (now: number) => {
    if (now - prunedAt < 1000) return;
    prunedAt = now;
    for (const chat of chats.values()) if (chat.queued === 0 && !chat.busy && chat.nextAt <= now) chats.delete(chat.id);
  };

  const settle = (job: Job, outcome: (waiter: Waiter) => void) => {
    job.chat.queued--;
    for (const waiter of job.waiters) outcome(waiter);
  };

  const dropPreview = (key: string) => {
    const job = previewOf.get(key);
    if (!job) return;
    previewOf.delete(key);
    previews.splice(previews.indexOf(job), 1);
    settle(job, (waiter) => waiter.resolve(SKIPPED));
  };

  const dispatch = (prev: Call, job: Job) => {
    const { chat } = job;
    // The clock read now, not at the pump's start: sending the calls before this one took time.
    const now = Date.now();
    sent.push(now);
    chat.busy = true;
    chat.nextAt = now + chat.gapMs;
    prev(job.method as never, job.payload as never, job.signal).then(
      (result) => {
        chat.busy = false;
        settle(job, (waiter) => waiter.resolve(result));
        pump(prev);
      },
      (err: unknown) => {
        chat.busy = false;
        settle(job, (waiter) => waiter.reject(err));
        pump(prev);
      },
    );
  };

  /** The first job of `lane` whose chat may be sent to now, taken out of the lane. */
  const takeReady = (lane: Job[], now: number): Job | undefined => {
    for (let i = 0; i < lane.length; i++) {
      const { chat } = lane[i]!;
      if (chat.busy || chat.nextAt > now) continue;
      const [job] = lane.splice(i, 1);
      return job;
    }
    return undefined;
  };

  function pump(prev: Call) {
    const now = Date.now();
    while (room(now)) {
      const job = takeReady(first, now) ?? takeReady(urgent, now) ?? takeReady(previews, now);
      if (!job) break;
      if (job.preview) previewOf.delete(job.preview);
      dispatch(prev, job);
    }
    prune(now);
    if (waiting() === 0) return;
    // Wake when the first waiting chat's gap has passed and the window has room (a busy chat wakes the pump itself).
    let chatReady = Infinity;
    for (const lane of lanes)
      for (const job of lane) if (!job.chat.busy && job.chat.nextAt < chatReady) chatReady = job.chat.nextAt;
    const next = room(now) ? chatReady : Math.max(chatReady, sent[0]! + 1000);
    if (next === Infinity || next >= wakeAt) return;
    clearTimeout(timer);
    wakeAt = next;
    timer = setTimeout(
      () => {
        wakeAt = Infinity;
        pump(prev);
      },
      Math.max(0, next - now),
    );
  }

  return (prev, method, payload, signal) => {
    const params = payload as Payload | undefined;
    if (!params || !('chat_id' in params) || params.chat_id === undefined) return prev(method, payload, signal);
    const now = Date.now();
    if (method === 'sendChatAction') {
      if (waiting() > 0 || !room(now)) return Promise.resolve(SKIPPED as never);
      sent.push(now);
      return prev(method, payload, signal);
    }
    const chat = chatOf(params.chat_id);
    const message = params.message_id === undefined ? undefined : `${chat.id}:${String(params.message_id)}`;
    const preview = method === 'editMessageText' && previewing.getStore() ? message : undefined;
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject } as Waiter;
      const queued = preview === undefined ? undefined : previewOf.get(preview);
      if (queued) {
        queued.payload = params;
        queued.signal = signal;
        queued.waiters.push(waiter);
        return;
      }
      if (message !== undefined && preview === undefined) dropPreview(message);
      const job: Job = { method, payload: params, signal, chat, preview, waiters: [waiter] };
      chat.queued++;
      if (preview === undefined) {
        const update = replying.getStore();
        const lane = update && !update.answered ? first : urgent;
        if (update) update.answered = true;
        lane.push(job);
      } else {
        previews.push(job);
        previewOf.set(preview, job);
      }
      pump(prev);
    });
  };
}
