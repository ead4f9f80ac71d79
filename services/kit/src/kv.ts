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
  /** Sets `key` to `owner` for `ttlSec` unless it is set: true when this call took it (a lock across replicas). */
  acquire(key: string, owner: string, ttlSec: number): Promise<boolean>;
  /** Deletes `key` only while it still holds `owner` (a lock released by the one that holds it). */
  release(key: string, owner: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createKeyValue(options: { url?: string; keyPrefix?: string }): KeyValue {
  return options.url ? redisKeyValue(options.url, options.keyPrefix) : memoryKeyValue(options.keyPrefix);
}

const RELEASE_IF_OWNER = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

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
    async acquire(key, owner, ttlSec) {
      return (await redis.set(key, owner, 'EX', ttlSec, 'NX')) === 'OK';
    },
    async release(key, owner) {
      await redis.eval(RELEASE_IF_OWNER, 1, key, owner);
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
    async acquire(key, owner, ttlSec) {
      if (live(key)) return false;
      entries.set(keyPrefix + key, { value: owner, expiresAt: Date.now() + ttlSec * 1000 });
      return true;
    },
    async release(key, owner) {
      if (live(key)?.value === owner) entries.delete(keyPrefix + key);
    },
    async ping() {},
    async close() {
      entries.clear();
    },
  };
}
