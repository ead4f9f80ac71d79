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
const broadcasting = new AsyncLocalStorage<{ perSecond: number }>();
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

/**
 * Runs `call` with its Bot API calls marked as a broadcast's (docs/bot.md, Broadcasts): the last lane,
 * `perSecond` of them a second evenly spaced, sent only when nothing else waits, while a sixth of the
 * second's calls stay free for answers and after any 429's retry_after has passed.
 */
export function asBroadcast<T>(perSecond: number, call: () => Promise<T>): Promise<T> {
  return broadcasting.run({ perSecond }, call);
}

/** Telegram's 429s as they come back, each try's (installed under auto-retry): when broadcasts may go on. */
export interface FloodGate {
  transformer: Transformer;
  /** Until when (ms since the epoch) the last 429's retry_after holds. */
  until(): number;
}

export function floodGate(): FloodGate {
  let until = 0;
  return {
    transformer: async (prev, method, payload, signal) => {
      const result = await prev(method, payload, signal);
      if (!result.ok && result.error_code === 429)
        until = Math.max(until, Date.now() + (result.parameters?.retry_after ?? 1) * 1000);
      return result;
    },
    until: () => until,
  };
}

/** The share of the calls a second that broadcasts never take: a question asked meanwhile gets its placeholder at once. */
const ANSWERS_SHARE = 1 / 6;

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
  /** A broadcast's call: its messages a second at most. */
  broadcast: number | undefined;
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
 * between two calls of one chat) with four lanes, each served only when no call of the one before
 * can go, each in the order its calls were made. First: an update's first message to its chat (see
 * firstReplyFirst: the placeholder of an answer, the reply to a command). Urgent: every other call
 * naming a chat that is not a preview (final edits, invoices, notices). Previews (calls made inside
 * asPreview, the intermediate streaming edits): a newer preview of a message replaces the queued
 * older one (whose promise resolves with the newer's result), and any other call naming the message
 * (its final edit) drops its queued preview (that promise resolves with `true`). Broadcasts (calls
 * made inside asBroadcast) last, and only while five sixths of the second's calls are taken at most. Chat
 * actions (typing…) are hints: sent at once when nothing waits, dropped otherwise, never counted
 * against a chat. Calls naming no chat (getUpdates, answerCallbackQuery, answerPreCheckoutQuery)
 * pass at once: Telegram does not count them as messages.
 *
 * One call of a chat is at Telegram at a time, its retries included: install it after auto-retry,
 * so it wraps it and a retried preview can never land after the final edit.
 */
export function priorityThrottler(
  limits: ThrottleLimits = TELEGRAM_LIMITS,
  floodUntil: () => number = () => 0,
): Transformer {
  const first: Job[] = [];
  const urgent: Job[] = [];
  const previews: Job[] = [];
  const broadcasts: Job[] = [];
  const waiting = () => first.length + urgent.length + previews.length + broadcasts.length;
  const broadcastRoom = Math.max(1, Math.floor(limits.perSecond * (1 - ANSWERS_SHARE)));
  const previewOf = new Map<string, Job>();
  const chats = new Map<string, Chat>();
  /** When the last `perSecond` calls were sent, oldest first (a sliding one-second window). */
  const sent: number[] = [];
  /** A broadcast's next call is not sent before this: its calls go evenly spaced, `1000 / perSecond` ms apart. */
  let broadcastNextAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let wakeAt = Infinity;
  let prunedAt = 0;

  const room = (now: number, limit = limits.perSecond) => {
    while (sent.length > 0 && now - sent[0]! >= 1000) sent.shift();
    return sent.length < limit;
  };
  const broadcastMayGo = (now: number) => now >= floodUntil() && now >= broadcastNextAt && room(now, broadcastRoom);

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
    if (job.broadcast !== undefined) broadcastNextAt = now + 1000 / job.broadcast;
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
      const job =
        takeReady(first, now) ??
        takeReady(urgent, now) ??
        takeReady(previews, now) ??
        (broadcastMayGo(now) ? takeReady(broadcasts, now) : undefined);
      if (!job) break;
      if (job.preview) previewOf.delete(job.preview);
      dispatch(prev, job);
    }
    prune(now);
    if (waiting() === 0) return;
    // Wake when the first waiting chat's gap has passed and the window has room for its lane (a busy chat wakes the pump itself).
    const readyAt = (jobs: Job[]) => {
      let ready = Infinity;
      for (const job of jobs) if (!job.chat.busy && job.chat.nextAt < ready) ready = job.chat.nextAt;
      return ready;
    };
    const windowFreeAt = (limit: number) => (room(now, limit) ? now : sent[sent.length - limit]! + 1000);
    const next = Math.min(
      Math.max(readyAt([...first, ...urgent, ...previews]), windowFreeAt(limits.perSecond)),
      Math.max(readyAt(broadcasts), windowFreeAt(broadcastRoom), broadcastNextAt, floodUntil()),
    );
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
      const broadcast = broadcasting.getStore()?.perSecond;
      const job: Job = { method, payload: params, signal, chat, preview, broadcast, waiters: [waiter] };
      chat.queued++;
      if (broadcast !== undefined) {
        broadcasts.push(job);
      } else if (preview === undefined) {
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
