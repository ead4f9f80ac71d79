import { apiPath } from '@gpt/contracts/routes';
import { createParser } from 'eventsource-parser';

import { readStoredToken } from '@/lib/session/session-storage';

import { type ChatMessage } from '@gpt/contracts';

export interface AnswerEnd {
  status: 'done' | 'stopped' | 'failed';
  cost: number | null;
  model: string | null;
  message: ChatMessage | null;
}

export interface AnswerHandlers {
  /** The answer's text from `offset` on: the page appends it to what it shows. */
  onText(text: string): void;
  onEnd(end: AnswerEnd): void;
  /** A refusal found while answering, or a stream the server will not open (a signed-out session). */
  onRefusal(message: string): void;
  /**
   * The answer is not there (`answer_not_found`): refused before it began — the question's own answer said
   * why, e.g. 402 — or deleted. Nothing to tell; the conversation read again shows what is stored.
   */
  onGone(): void;
}

/** The server's words for an answer that is not there, as the 404 answer's and the error event's `code`. */
const GONE = 'answer_not_found';

/** A stream silent this long is taken for a half-open socket (a tab woken from the background) and opened again. */
const STALL_MS = 30_000;
const RETRY_MS = [500, 1_000, 2_000, 5_000];

/**
 * Follows an answer's server-sent events (`GET /api/chat/answers/{answerId}/events`) from the character
 * `offset` already shown: each delta's `id` is the offset after it, so a chunk the page already has is cut,
 * and a dropped connection is opened again with `Last-Event-ID` at the offset reached — the answer is a job
 * on the server and goes on without the page. Over fetch, not EventSource: the site's session is a bearer
 * token. `origin` is '' in the app (the page's own). Returns the function that stops following (the answer itself
 * goes on).
 */
export function followAnswer(answerId: string, offset: number, handlers: AnswerHandlers, origin = ''): () => void {
  let shown = offset;
  let closed = false;
  let controller = new AbortController();
  let failures = 0;

  const take = (event: string | undefined, data: string, id: string | undefined) => {
    const body = JSON.parse(data) as Record<string, unknown>;
    if (event === 'delta') {
      const text = typeof body.text === 'string' ? body.text : '';
      const end = id === undefined ? shown + text.length : Number(id);
      const fresh = text.slice(Math.max(0, shown - (end - text.length)));
      if (fresh) handlers.onText(fresh);
      shown = Math.max(shown, end);
    } else if (event === 'done') {
      closed = true;
      handlers.onEnd({
        status: body.status as AnswerEnd['status'],
        cost: typeof body.cost === 'number' ? body.cost : null,
        model: typeof body.model === 'string' ? body.model : null,
        message: (body.message as ChatMessage | undefined) ?? null,
      });
    } else if (event === 'error') {
      closed = true;
      if (body.code === GONE) handlers.onGone();
      else handlers.onRefusal(typeof body.error === 'string' ? body.error : 'Не удалось получить ответ.');
    }
  };

  async function readOnce(): Promise<void> {
    controller = new AbortController();
    let stall = setTimeout(() => controller.abort(), STALL_MS);
    const token = readStoredToken();
    try {
      const response = await fetch(`${origin}${apiPath('getChatAnswersByAnswerIdEvents', { answerId })}`, {
        headers: {
          Accept: 'text/event-stream',
          'Last-Event-ID': String(shown),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        signal: controller.signal,
        cache: 'no-store',
      });
      if (response.status >= 400 && response.status < 500) {
        const body = (await response.json().catch(() => null)) as { error?: unknown; code?: unknown } | null;
        closed = true;
        if (body?.code === GONE) handlers.onGone();
        else handlers.onRefusal(typeof body?.error === 'string' ? body.error : 'Ответ не найден.');
        return;
      }
      if (!response.ok || !response.body) return;
      const parser = createParser({ onEvent: (message) => take(message.event, message.data, message.id) });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || closed) break;
        failures = 0;
        clearTimeout(stall);
        stall = setTimeout(() => controller.abort(), STALL_MS);
        parser.feed(value);
      }
      if (closed) await reader.cancel().catch(() => undefined);
    } catch {
      // A dropped or stalled connection: opened again below while the answer is followed.
    } finally {
      clearTimeout(stall);
    }
  }

  void (async () => {
    while (!closed) {
      await readOnce();
      if (closed) break;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]));
      failures += 1;
    }
  })();

  return () => {
    closed = true;
    controller.abort();
  };
}
