import { createHash, randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { KeyValue } from './kv';
import type { Logger } from './logger';

/** An answer as it is sent: its JSON (the bytes written on every request) and the ETag that names exactly that JSON. */
export interface CachedAnswer<T> {
  value: T;
  body: Buffer;
  etag: string;
}

interface Entry {
  generation: number;
  answer: Promise<CachedAnswer<unknown>>;
}

/** What a replica announces on the channel: who changed what (no key: everything). */
const Announcement = z.object({ from: z.string(), key: z.string().optional() });
type Announcement = z.infer<typeof Announcement>;

/** The announcement in a channel message; undefined when it is not one. */
function parseAnnouncement(message: string): Announcement | undefined {
  try {
    return Announcement.parse(JSON.parse(message));
  } catch {
    return undefined;
  }
}

/** The tag of a body: its hash, so two replicas holding the same answer name it alike. */
export const etagOf = (body: Buffer) => `"${createHash('sha1').update(body).digest('base64url')}"`;

/** A JSON text as an answer ready to send: its bytes, encoded once, and their ETag. */
export function answerOf(json: string): Pick<CachedAnswer<unknown>, 'body' | 'etag'> {
  const body = Buffer.from(json);
  return { body, etag: etagOf(body) };
}

/**
 * Finished answers kept until what they show changes. Every write calls changed() after its commit
 * (changed(key) for one answer, changed() for all), which drops them at once in this process and
 * tells the other replicas through a Redis channel; a replica whose subscription was interrupted
 * drops everything when it is back. Each generation of answers also ends after maxAgeMs (only with
 * Redis: without it there is no other replica whose announcement could be lost, so an answer is
 * kept until a change) and when nextChangeAt() (a change known in advance, such as a scheduled
 * publication) comes.
 */
export function answerCache(options: {
  kv: KeyValue;
  channel: string;
  logger: Logger;
  /** Answers kept at once; the oldest go first. */
  maxEntries: number;
  /** The longest any answer is kept, should a change's announcement to the other replicas be lost. */
  maxAgeMs: number;
  nextChangeAt?: () => Promise<Date | undefined>;
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
    endsAt = kv.redis ? Date.now() + options.maxAgeMs : Infinity;
    options.nextChangeAt?.().then(
      (next) => {
        if (next && generation === current) endsAt = Math.min(endsAt, next.getTime());
      },
      (err: unknown) => {
        logger.warn({ err, channel }, 'next scheduled change unknown; answers kept for the usual time');
      },
    );
  };
  newGeneration();

  const drop = (key: string | undefined) => {
    if (key === undefined) newGeneration();
    else entries.delete(key);
  };

  const subscriber = kv.redis?.duplicate();
  if (subscriber) {
    let subscribed = false;
    // On a reconnect ioredis subscribes again by itself; a change announced meanwhile was missed.
    subscriber.on('ready', () => {
      if (subscribed) newGeneration();
      subscribed = true;
    });
    subscriber.on('message', (_channel: string, message: string) => {
      const announcement = parseAnnouncement(message);
      // One that cannot be read (another version's) drops everything: nothing stale is kept.
      if (!announcement) newGeneration();
      else if (announcement.from !== self) drop(announcement.key);
    });
    subscriber.on('error', (err: unknown) => logger.warn({ err, channel }, 'change channel unavailable'));
    void subscriber
      .subscribe(channel)
      .catch((err: unknown) => logger.warn({ err, channel }, 'change channel unavailable'));
  }

  const changed = (key?: string): void => {
    drop(key);
    if (!kv.redis) return;
    const announcement: Announcement = key === undefined ? { from: self } : { from: self, key };
    kv.redis.publish(channel, JSON.stringify(announcement)).catch((err: unknown) => {
      logger.warn({ err, channel }, 'other replicas not told of a change; they see it within their max age');
    });
  };

  return {
    /** The answer under `key`, made by `make` (shared by every request asking while it is made) unless kept. */
    get<T>(key: string, make: () => Promise<T>): Promise<CachedAnswer<T>> {
      if (Date.now() >= endsAt) newGeneration();
      const hit = entries.get(key);
      if (hit && hit.generation === generation) return hit.answer as Promise<CachedAnswer<T>>;
      const answer = make().then((value) => ({ value, ...answerOf(JSON.stringify(value)) }));
      const entry: Entry = { generation, answer };
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string);
      // A failure (a 404, a lost connection) is not kept: the next request asks again.
      answer.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return answer;
    },

    /** The answer under `key` changed, or with no key every answer (after the commit): dropped here and in every other replica. */
    changed,

    /** Runs a write to what the answers show; once it has ended (committed or not), changed(). */
    async changing<T>(write: () => Promise<T>): Promise<T> {
      try {
        return await write();
      } finally {
        changed();
      }
    },

    async close(): Promise<void> {
      await subscriber?.quit().catch(() => subscriber.disconnect());
    },
  };
}

export type AnswerCache = ReturnType<typeof answerCache>;

/** What a service's answer cache is made of: the key-value store, the logger and the key prefix of its channel. */
export type AnswerCacheDeps = Pick<Parameters<typeof answerCache>[0], 'kv' | 'logger'> & {
  config: { REDIS_KEY_PREFIX: string };
};

/**
 * A service's answer cache `name`, made once by its definition's `wire` and shared by its routes,
 * consumers and jobs through the deps. Its change channel is `<REDIS_KEY_PREFIX><name>:changed`.
 */
export function serviceAnswerCache(
  deps: AnswerCacheDeps,
  name: string,
  limits: Pick<Parameters<typeof answerCache>[0], 'maxEntries' | 'maxAgeMs' | 'nextChangeAt'>,
): AnswerCache {
  return answerCache({
    kv: deps.kv,
    logger: deps.logger,
    channel: `${deps.config.REDIS_KEY_PREFIX}${name}:changed`,
    ...limits,
  });
}

/**
 * Sends a kept answer with its ETag: a client (or proxy) that already holds it gets 304 and no
 * body. `no-cache` makes every reuse ask first, so a change shows on the next request.
 */
export function sendAnswer(req: Request, res: Response, answer: Pick<CachedAnswer<unknown>, 'body' | 'etag'>): void {
  res.setHeader('ETag', answer.etag);
  res.setHeader('Cache-Control', 'public, no-cache');
  const held = req.headers['if-none-match'];
  if (held && held.split(',').some((tag) => tag.trim().replace(/^W\//, '') === answer.etag)) {
    res.status(304).end();
    return;
  }
  sendJsonBytes(req, res, answer.body);
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends JSON already encoded (a kept answer's bytes) as `res.json` would, without express's
 * per-request work on a string body (its content-type formatting, encoding, length).
 */
export function sendJsonBytes(req: Request, res: Response, body: Buffer): void {
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}
