// A short exclusive lock in Redis for periodic work that several processes run on timers (the
// pipeline sweeper): whoever takes it does the pass, the others skip theirs. The token makes sure
// a holder whose lock expired never deletes the next holder's.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * Runs `fn` if the lock `key` is free, holding it for at most `ttlMs` (a crashed holder frees it
 * by expiry). Resolves `{ ran: false }` without running when another holder has it.
 */
export async function withRedisLock<T>(
  redis: Redis,
  key: string,
  ttlMs: number,
  fn: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const token = randomBytes(12).toString('hex');
  const got = await redis.set(key, token, 'PX', ttlMs, 'NX');
  if (got !== 'OK') return { ran: false };
  try {
    return { ran: true, value: await fn() };
  } finally {
    await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
  }
}
