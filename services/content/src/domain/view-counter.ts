import { createHash, randomUUID } from 'node:crypto';
import type { KeyValue, Logger } from '@gpt/kit';
import type { Kysely } from 'kysely';
import { articlesRepository } from '../data/articles.repository';
import type { ContentDatabase } from '../data/schema';

/** Who is reading: the client address the gateway forwards and the browser's user agent. */
export interface Visitor {
  ip: string;
  userAgent: string;
}

interface Batch {
  id: string;
  counts: Map<number, number>;
}

/** Visitor marks remembered in this process; the oldest are forgotten first (Redis still has them). */
const MAX_MARKS = 100_000;

const addTo = (totals: Map<number, number>, articleId: number, views: number) =>
  totals.set(articleId, (totals.get(articleId) ?? 0) + views);

/**
 * Counts article views without a row write per view. The same visitor reading the same article
 * again within the window is not counted again (the mark lives in Redis, or the embedded in-memory
 * store; this process remembers the marks it saw until they expire, so a rereading visitor costs no
 * round trip). New views wait in memory and are added in batches: a batch keeps its id until it is
 * stored, so a failed flush is retried as the same batch and the database adds it exactly once;
 * views counted meanwhile go into the next one. Stopping flushes what is left.
 */
export function viewCounter(options: { db: Kysely<ContentDatabase>; kv: KeyValue; logger: Logger; windowSec: number }) {
  const { db, kv, logger, windowSec } = options;
  let pending = new Map<number, number>();
  let unsent: Batch | undefined;
  /** Views this process counted, and those of them already stored, per article since start. */
  const counted = new Map<number, number>();
  const stored = new Map<number, number>();
  let batchesStored = 0;
  let flushing: Promise<void> | undefined;

  /** Marks known to exist, with when they expire: a visitor reading again asks Redis no more until then. */
  const marks = new Map<string, number>();

  /** Sets the visitor's mark unless it exists: whether it was new, and when it expires. */
  const setMark = async (key: string): Promise<{ isNew: boolean; expiresAt: number }> => {
    const now = Date.now();
    if (kv.redis) {
      const answers = await kv.redis.multi().set(key, '1', 'EX', windowSec, 'NX').pttl(key).exec();
      const [[, set], [, ttl]] = answers as [[Error | null, string | null], [Error | null, number]];
      return { isNew: set === 'OK', expiresAt: now + Math.max(0, ttl) };
    }
    // The in-memory store serves one process, where nothing runs between these two calls' effects.
    if ((await kv.get(key)) !== null) return { isNew: false, expiresAt: now };
    await kv.set(key, '1', windowSec);
    return { isNew: true, expiresAt: now + windowSec * 1000 };
  };

  const isNewView = async (articleId: number, visitor: Visitor): Promise<boolean> => {
    const fingerprint = createHash('sha256').update(`${visitor.ip}\n${visitor.userAgent}`).digest('hex').slice(0, 32);
    const key = `content:view:${articleId}:${fingerprint}`;
    if ((marks.get(key) ?? 0) > Date.now()) return false;
    const { isNew, expiresAt } = await setMark(key);
    marks.delete(key);
    marks.set(key, expiresAt);
    if (marks.size > MAX_MARKS) marks.delete(marks.keys().next().value as string);
    return isNew;
  };

  const storeBatch = async (batch: Batch) => {
    await db.transaction().execute((trx) => articlesRepository(trx).addViews(batch.id, batch.counts));
    unsent = undefined;
    batchesStored += 1;
    for (const [articleId, views] of batch.counts) addTo(stored, articleId, views);
  };

  /** The batch a failed flush left first (as it was), then the views counted since. */
  const store = async () => {
    if (unsent) await storeBatch(unsent);
    if (pending.size === 0) return;
    unsent = { id: randomUUID(), counts: pending };
    pending = new Map();
    await storeBatch(unsent);
  };

  const flush = (): Promise<void> => {
    flushing ??= store().finally(() => (flushing = undefined));
    return flushing;
  };

  return {
    /** Counts the view when it is a new one. */
    async count(articleId: number, visitor: Visitor): Promise<void> {
      if (!(await isNewView(articleId, visitor))) return;
      addTo(pending, articleId, 1);
      addTo(counted, articleId, 1);
    },

    /** How many batches this process has stored: a stored count read while this did not change is consistent with storedSoFar. */
    batchesStored: () => batchesStored,

    /** Views of this article this process has stored so far. */
    storedSoFar: (articleId: number) => stored.get(articleId) ?? 0,

    /**
     * The article's views: `storedCount` read from the database when this process had stored
     * `storedBefore` of them, plus everything this process counted since (stored or not yet).
     */
    total: (articleId: number, storedCount: number, storedBefore: number) =>
      storedCount + (counted.get(articleId) ?? 0) - storedBefore,

    /** Stores the views counted so far (one flush at a time); a failure leaves them for the next one. */
    flush,

    /** Flushes every `intervalMs`; the returned stop ends that and flushes what is left. */
    start(intervalMs: number): () => Promise<void> {
      const timer = setInterval(() => {
        flush().catch((err: unknown) => logger.warn({ err }, 'article views not stored yet; retrying'));
      }, intervalMs);
      timer.unref();
      return async () => {
        clearInterval(timer);
        // The flush under way may have begun before the last views were counted.
        await flushing?.catch(() => undefined);
        await flush();
      };
    },
  };
}

export type ViewCounter = ReturnType<typeof viewCounter>;
