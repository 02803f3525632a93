// The per-mailbox Redis lease on a real Redis: one holder at a time, only the holder renews or
// releases, and an unrenewed lease expires so another worker can take over.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createCommandRedis } from '../../../src/lib/redis.js';
import { createLeaseStore } from '../../../src/modules/integrations/mailbox/lease.js';

const redis = createCommandRedis(inject('redisUrl'));
const prefix = `tlease${randomBytes(4).toString('hex')}`;
afterAll(() => {
  redis.disconnect();
});

describe('mailbox lease', () => {
  it('has one holder; only the holder renews or releases', async () => {
    const a = createLeaseStore(redis, { prefix, token: 'worker-a', ttlMs: 5_000 });
    const b = createLeaseStore(redis, { prefix, token: 'worker-b', ttlMs: 5_000 });
    expect(await a.acquire('mbx_1')).toBe(true);
    expect(await a.acquire('mbx_1')).toBe(true);
    expect(await b.acquire('mbx_1')).toBe(false);
    expect(await a.renew('mbx_1')).toBe(true);
    expect(await b.renew('mbx_1')).toBe(false);
    await b.release('mbx_1');
    expect(await a.holder('mbx_1')).toBe('worker-a');
    await a.release('mbx_1');
    expect(await a.holder('mbx_1')).toBeNull();
    expect(await b.acquire('mbx_1')).toBe(true);
    expect(await redis.pttl(`${prefix}:mail:lease:mbx_1`)).toBeGreaterThan(4_000);
  });

  it('expires when not renewed; the old holder then cannot renew it back', async () => {
    const a = createLeaseStore(redis, { prefix, token: 'worker-a', ttlMs: 150 });
    const b = createLeaseStore(redis, { prefix, token: 'worker-b', ttlMs: 150 });
    expect(await a.acquire('mbx_2')).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
    expect(await b.acquire('mbx_2')).toBe(true);
    expect(await a.renew('mbx_2')).toBe(false);
    expect(await a.holder('mbx_2')).toBe('worker-b');
  });
});
