import { apiPath } from '@gpt/contracts/routes';
import type { ChatDoneEvent } from '@gpt/contracts';

/** One server-sent event as a reader gets it. */
export interface ServerEvent {
  event: string;
  id: string | null;
  data: unknown;
}

/** An answer's event stream being read. */
export interface AnswerStream {
  status: number;
  /** The next event (keep-alive comments skipped). */
  next(timeoutMs?: number): Promise<ServerEvent>;
  /** Reads on until `done` (or an error event); the text of every delta and the end. */
  untilDone(): Promise<{ text: string; done: ChatDoneEvent; lastId: string | null }>;
  close(): void;
}

function parseEvent(block: string): ServerEvent | null {
  let event = 'message';
  let id: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const [field, ...rest] = line.split(':');
    const value = rest.join(':').replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, id, data: JSON.parse(data.join('\n')) as unknown };
}

/** The web chat as a signed-in browser calls it: at `baseUrl` (the bot itself, or the gateway) with the user's token. */
export function webChat(baseUrl: string, token: string) {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };

  async function call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    const json: unknown = contentType.includes('json') && text ? JSON.parse(text) : null;
    return {
      status: response.status,
      json: json as Record<string, unknown> & { error?: string },
      text,
      headers: response.headers,
    };
  }

  async function events(answerId: string, lastEventId?: number): Promise<AnswerStream> {
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}${apiPath('getChatAnswersByAnswerIdEvents', { answerId })}`, {
      headers: {
        Authorization: headers.Authorization,
        ...(lastEventId === undefined ? {} : { 'Last-Event-ID': String(lastEventId) }),
      },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';

    async function next(timeoutMs = 20_000): Promise<ServerEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const parsed = parseEvent(block);
          if (parsed) return parsed;
          continue;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no event in time');
        let timer: NodeJS.Timeout | undefined;
        const read = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no event in time')), left))),
        ]).finally(() => clearTimeout(timer));
        if (read.done) throw new Error('the stream ended before its next event');
        buffer += decoder.decode(read.value, { stream: true });
      }
    }

    return {
      status: response.status,
      next,
      async untilDone() {
        let text = '';
        let lastId: string | null = null;
        for (;;) {
          const event = await next();
          if (event.id !== null) lastId = event.id;
          if (event.event === 'delta') text += (event.data as { text: string }).text;
          else if (event.event === 'done') return { text, done: event.data as ChatDoneEvent, lastId };
          else throw new Error(`unexpected event ${event.event}: ${JSON.stringify(event.data)}`);
        }
      },
      close: () => controller.abort(),
    };
  }

  return {
    call,
    events,
    conversations: () => call('GET', apiPath('getChatConversations')),
    newConversation: () => call('POST', apiPath('postChatConversations'), {}),
    conversation: (id: string) => call('GET', apiPath('getChatConversationsById', { id })),
    ask: (id: string, text: string) => call('POST', apiPath('postChatConversationsByIdMessages', { id }), { text }),
    stop: (answerId: string) => call('POST', apiPath('postChatAnswersByAnswerIdStop', { answerId })),
  };
}
