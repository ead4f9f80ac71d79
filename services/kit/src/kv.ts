import { Redis } from 'ioredis';

/** The little of Redis the services use, so the embedded default can run without a server. */
export interface KeyValue {
  kind: 'redis' | 'memory';
  /** The ioredis client when kind is 'redis' (for libraries such as rate-limiter-flexible). */
  redis?: Redis;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSec?: number): Promise<void>;
  incr(key: string): Promise<number>;
  del(key: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createKeyValue(options: { url?: string; keyPrefix?: string }): KeyValue {
  return options.url ? redisKeyValue(options.url, options.keyPrefix) : memoryKeyValue(options.keyPrefix);
}

function redisKeyValue(url: string, keyPrefix = ''): KeyValue {
  const redis = new Redis(url, { keyPrefix, maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  return {
    kind: 'redis',
    redis,
    get: (key) => redis.get(key),
    async set(key, value, ttlSec) {
      if (ttlSec) await redis.set(key, value, 'EX', ttlSec);
      else await redis.set(key, value);
    },
    incr: (key) => redis.incr(key),
    async del(key) {
      await redis.del(key);
    },
    async ping() {
      await redis.ping();
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** In-memory stand-in, only for the embedded default (one process, nothing shared). */
function memoryKeyValue(keyPrefix = ''): KeyValue {
  const entries = new Map<string, { value: string; expiresAt?: number }>();
  const live = (key: string) => {
    const entry = entries.get(keyPrefix + key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      entries.delete(keyPrefix + key);
      return undefined;
    }
    return entry;
  };
  return {
    kind: 'memory',
    get: async (key) => live(key)?.value ?? null,
    async set(key, value, ttlSec) {
      entries.set(keyPrefix + key, { value, expiresAt: ttlSec ? Date.now() + ttlSec * 1000 : undefined });
    },
    async incr(key) {
      const entry = live(key);
      const next = Number(entry?.value ?? 0) + 1;
      entries.set(keyPrefix + key, { value: String(next), expiresAt: entry?.expiresAt });
      return next;
    },
    async del(key) {
      entries.delete(keyPrefix + key);
    },
    async ping() {},
    async close() {
      entries.clear();
    },
  };
}
