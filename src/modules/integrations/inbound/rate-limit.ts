// Fixed-window counters in Redis, so every receiver process behind the MX counts the same client
// together: one INCR (and an expiry on the first) per connection or message.
import type { Redis } from 'ioredis';

export interface RateLimiter {
  /** Counts one event for `who`; false when that takes it over `limit` in the current minute. */
  take(kind: string, who: string, limit: number): Promise<boolean>;
}

export function createRateLimiter(redis: Redis, prefix: string, windowMs = 60_000): RateLimiter {
  return {
    async take(kind, who, limit) {
      const window = Math.floor(Date.now() / windowMs);
      const key = `${prefix}:smtp:rl:${kind}:${who}:${window}`;
      const res = await redis
        .multi()
        .incr(key)
        .pexpire(key, windowMs * 2)
        .exec();
      const n = Number(res?.[0]?.[1] ?? 0);
      return n <= limit;
    },
  };
}
