import { createHash, randomUUID } from 'node:crypto';
import type { KeyValue, Logger } from '@gpt/kit';

/** A public answer as it is sent: its JSON and the ETag that names exactly that JSON. */
export interface CachedAnswer<T> {
  value: T;
  body: string;
  etag: string;
}

interface Entry {
  generation: number;
  answer: Promise<CachedAnswer<unknown>>;
}

/** Public answers kept at once; the oldest go first. */
const MAX_ENTRIES = 2000;
/** The longest any answer is kept, should a change's announcement to the other replicas be lost. */
const MAX_AGE_MS = 30_000;

/** The tag of a body: its hash, so two replicas holding the same answer name it alike. */
export const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('base64url')}"`;

/**
 * The public reads' answers, kept until content changes. Every write of this process calls
 * changed() after its commit, which drops them at once and tells the other replicas through a
 * Redis channel; a replica whose subscription was interrupted drops them when it is back. Each
 * generation of answers also ends when the next scheduled article becomes public (nextChangeAt)
 * and after MAX_AGE_MS.
 */
export function publicCache(options: {
  kv: KeyValue;
  channel: string;
  logger: Logger;
  nextChangeAt: () => Promise<Date | undefined>;
}) {
  const { kv, channel, logger } = options;
  const self = randomUUID();
  const entries = new Map<string, Entry>();
  let generation = 0;
  let endsAt = 0;

  const newGeneration = () => {
    generation += 1;
    entries.clear();
    const current = generation;
    endsAt = Date.now() + MAX_AGE_MS;
    options.nextChangeAt().then(
      (next) => {
        if (next && generation === current) endsAt = Math.min(endsAt, next.getTime());
      },
      (err: unknown) => {
        logger.warn({ err }, 'next scheduled article unknown; public answers kept for the usual time');
      },
    );
  };
  newGeneration();

  const subscriber = kv.redis?.duplicate();
  if (subscriber) {
    let subscribed = false;
    // On a reconnect ioredis subscribes again by itself; a change announced meanwhile was missed.
    subscriber.on('ready', () => {
      if (subscribed) newGeneration();
      subscribed = true;
    });
    subscriber.on('message', (_channel: string, from: string) => {
      if (from !== self) newGeneration();
    });
    subscriber.on('error', (err: unknown) => logger.warn({ err }, 'content change channel unavailable'));
    void subscriber
      .subscribe(channel)
      .catch((err: unknown) => logger.warn({ err }, 'content change channel unavailable'));
  }

  return {
    /** The answer under `key`, made by `make` (shared by every request asking while it is made) unless kept. */
    get<T>(key: string, make: () => Promise<T>): Promise<CachedAnswer<T>> {
      if (Date.now() >= endsAt) newGeneration();
      const hit = entries.get(key);
      if (hit && hit.generation === generation) return hit.answer as Promise<CachedAnswer<T>>;
      const made = generation;
      const answer = make().then((value) => {
        const body = JSON.stringify(value);
        return { value, body, etag: etagOf(body) };
      });
      const entry: Entry = { generation: made, answer };
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      // A failure (a 404, a lost connection) is not kept: the next request asks again.
      answer.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return answer;
    },

    /** Content changed (after the commit): drop every answer here and in every other replica. */
    changed(): void {
      newGeneration();
      if (!kv.redis) return;
      kv.redis.publish(channel, self).catch((err: unknown) => {
        logger.warn({ err }, 'other replicas not told of a content change; they see it within their max age');
      });
    },

    async close(): Promise<void> {
      await subscriber?.quit().catch(() => subscriber.disconnect());
    },
  };
}

export type PublicCache = ReturnType<typeof publicCache>;
