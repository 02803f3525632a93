import { Redis, type RedisOptions } from 'ioredis';

export type { Redis };

/**
 * Command connection for the API path: fails fast when Redis is away (the request gets a 503)
 * instead of queueing commands in memory forever.
 */
export function createCommandRedis(url: string, extra: RedisOptions = {}): Redis {
  const r = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    enableAutoPipelining: true,
    connectTimeout: 5_000,
    lazyConnect: false,
    ...extra,
  });
  r.on('error', () => undefined); // reported through failing commands and /ready
  return r;
}

/** Connection for BullMQ workers and blocking commands (BullMQ requires maxRetriesPerRequest null). */
export function createWorkerRedis(url: string, extra: RedisOptions = {}): Redis {
  const r = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: false, ...extra });
  r.on('error', () => undefined);
  return r;
}

/** Key names in one place, all under the install's prefix. */
export function redisKeys(prefix: string) {
  return {
    stamp: (kind: 'key' | 'usr' | 'org' | 'sess' | 'prj', id: string) => `${prefix}:stamp:${kind}:${id}`,
    rate: (scope: string) => `${prefix}:rl:${scope}`,
    lastUsed: `${prefix}:apikey:last-used`,
    idempotency: (scope: string, key: string) => `${prefix}:idem:${scope}:${key}`,
    invalidateChannel: `${prefix}:auth:invalidate`,
    /** Short exclusive locks for periodic work shared by processes (see redis-lock.ts). */
    lock: (name: string) => `${prefix}:lock:${name}`,
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;
