// The lock that keeps periodic passes (the sweeper) to one process at a time.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { withRedisLock } from '../../../src/lib/redis-lock.js';

describe('withRedisLock', () => {
  const redis = new Redis(inject('redisUrl'));
  const key = `t${randomBytes(5).toString('hex')}:lock:sweep`;
  afterAll(() => {
    redis.disconnect();
  });

  it('runs one holder at a time and frees the lock afterwards', async () => {
    let release!: () => void;
    const first = withRedisLock(
      redis,
      key,
      10_000,
      () =>
        new Promise<string>((r) => {
          release = () => r('first');
        }),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(await withRedisLock(redis, key, 10_000, async () => 'second')).toEqual({ ran: false });
    release();
    expect(await first).toEqual({ ran: true, value: 'first' });
    expect(await redis.exists(key)).toBe(0);
    expect(await withRedisLock(redis, key, 10_000, async () => 'third')).toEqual({ ran: true, value: 'third' });
  });

  it('never deletes a lock that expired and was taken by someone else', async () => {
    const res = await withRedisLock(redis, key, 50, async () => {
      await new Promise((r) => setTimeout(r, 120));
      await redis.set(key, 'someone-else', 'PX', 10_000);
      return 'late';
    });
    expect(res).toEqual({ ran: true, value: 'late' });
    expect(await redis.get(key)).toBe('someone-else');
    await redis.del(key);
  });

  it('releases the lock when the pass throws', async () => {
    await expect(
      withRedisLock(redis, key, 10_000, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await redis.exists(key)).toBe(0);
  });
});
