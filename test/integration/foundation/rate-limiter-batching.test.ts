// The rate limiter answers every check made in one event-loop turn for the same credential with a
// single script call. These tests run it against a real Redis and check that a batch gives exactly
// the answers the same checks made one after another would: order, remaining counts, refusals that
// spend nothing, stale credentials, watched counters, and batches larger than one call takes.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createRateLimiter,
  type CheckResult,
  type Policy,
  type RateLimiter,
} from '../../../src/modules/access/rate-limit.js';

describe('rate limiter batching (real Redis)', () => {
  let redis: Redis;
  let limiter: RateLimiter;
  let scriptCalls = 0;
  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'), { enableAutoPipelining: true });
    // Count the script calls the limiter sends through the real client.
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((cmd: { name: string }, ...rest: unknown[]) => {
      if (cmd.name === 'evalsha' || cmd.name === 'eval') scriptCalls++;
      return (send as (...a: unknown[]) => unknown)(cmd, ...rest);
    }) as typeof redis.sendCommand;
    limiter = createRateLimiter(redis);
    // The first call loads the script (EVALSHA, NOSCRIPT, EVAL); counts below start after it.
    await limiter.check([
      { name: 'warm', key: `test:ratebatch:warm:${randomBytes(4).toString('hex')}`, limit: 1, windowSec: 60 },
    ]);
  });
  afterAll(async () => {
    await redis?.quit();
  });

  const base = () => `test:ratebatch:${randomBytes(6).toString('hex')}`;
  // Day windows keep every check of a test inside one window.
  const policy = (name: string, limit: number): Policy => ({
    name,
    key: `${base()}:${name}`,
    limit,
    windowSec: 86_400,
  });
  const counter = async (p: Policy) => {
    const keys = await redis.keys(`${p.key}:*`);
    return keys.length ? Number(await redis.get(keys[0])) : 0;
  };
  const allowed = (r: CheckResult) => r.outcome === 'allowed';

  it('checks made together are answered in order, as if made one after another, with one script call', async () => {
    const policies = [policy('tight', 10), policy('loose', 100)];
    const stamps = [{ key: `${base()}:stamp`, expected: '0' }];
    const watch: string[] = [];
    const before = scriptCalls;
    const results = await Promise.all(Array.from({ length: 30 }, () => limiter.check(policies, stamps, watch)));
    expect(scriptCalls - before).toBe(1);

    expect(results.map((r) => r.outcome)).toEqual([...Array(10).fill('allowed'), ...Array(20).fill('limited')]);
    const states = results.map((r) => (r.outcome === 'stale' ? [] : r.states.map((s) => s.remaining)));
    expect(states.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => [9 - i, 99 - i]));
    // A refused check spends nothing from either policy.
    for (const s of states.slice(10)) expect(s).toEqual([0, 90]);
    for (const r of results.slice(10)) {
      if (r.outcome === 'stale') throw new Error('unexpected stale');
      expect(r.retryAfterSec).toBe(r.states[0].resetSec);
    }
    expect(await counter(policies[0])).toBe(10);
    expect(await counter(policies[1])).toBe(10);
    const keys = await redis.keys(`${policies[0].key}:*`);
    expect(await redis.ttl(keys[0])).toBeGreaterThan(0);

    // The next check, alone, continues from the batch's count.
    const next = await limiter.check(policies, stamps, watch);
    expect(next.outcome).toBe('limited');
    expect(await counter(policies[1])).toBe(10);
  });

  it('different credentials checked in the same turn get their own answers', async () => {
    const a = [policy('a', 3)];
    const b = [policy('b', 5)];
    const stampsA = [{ key: `${base()}:sa`, expected: '0' }];
    const stampsB = [{ key: `${base()}:sb`, expected: '0' }];
    const watch: string[] = [];
    const before = scriptCalls;
    const calls = Array.from({ length: 16 }, (_, i) =>
      i % 2 ? limiter.check(b, stampsB, watch) : limiter.check(a, stampsA, watch),
    );
    const results = await Promise.all(calls);
    expect(scriptCalls - before).toBe(2);
    expect(results.filter((r, i) => i % 2 === 0 && allowed(r))).toHaveLength(3);
    expect(results.filter((r, i) => i % 2 === 1 && allowed(r))).toHaveLength(5);
    expect(await counter(a[0])).toBe(3);
    expect(await counter(b[0])).toBe(5);
  });

  it('a stale stamp answers every check of the batch "stale" and counts nothing', async () => {
    const policies = [policy('p', 10)];
    const stampKey = `${base()}:stamp`;
    await redis.set(stampKey, '7');
    const stamps = [{ key: stampKey, expected: '6' }];
    const watch: string[] = [];
    const results = await Promise.all(Array.from({ length: 5 }, () => limiter.check(policies, stamps, watch)));
    expect(results.every((r) => r.outcome === 'stale')).toBe(true);
    expect(await counter(policies[0])).toBe(0);
    await redis.del(stampKey);
  });

  it('every check of a batch gets the watched counters', async () => {
    const policies = [policy('w', 10)];
    const watchKey = `${base()}:watch`;
    await redis.set(watchKey, '42');
    const watch = [watchKey, `${base()}:missing`];
    const stamps: { key: string; expected: string }[] = [];
    const results = await Promise.all(Array.from({ length: 4 }, () => limiter.check(policies, stamps, watch)));
    for (const r of results) {
      if (r.outcome === 'stale') throw new Error('unexpected stale');
      expect(r.watched).toEqual(['42', '0']);
    }
    await redis.del(watchKey);
  });

  it('a batch larger than one call takes is split and still allows exactly the limit', async () => {
    const policies = [policy('big', 280)];
    const stamps: { key: string; expected: string }[] = [];
    const watch: string[] = [];
    const before = scriptCalls;
    const results = await Promise.all(Array.from({ length: 300 }, () => limiter.check(policies, stamps, watch)));
    expect(scriptCalls - before).toBe(2);
    expect(results.filter(allowed)).toHaveLength(280);
    expect(results.slice(0, 280).every(allowed)).toBe(true);
    expect(await counter(policies[0])).toBe(280);
  });

  it('checks with their own arrays (no shared credential) are each answered on their own', async () => {
    const p = policy('own', 2);
    const results = await Promise.all(Array.from({ length: 4 }, () => limiter.check([p])));
    expect(results.filter(allowed)).toHaveLength(2);
    expect(await counter(p)).toBe(2);
  });
});
