// Rate-limit conformance: headers, the 429 envelope, no quota spent by rejected requests, and one
// limit shared by every API process. Fixed windows follow Redis' clock; tests that count requests
// first make sure they fit in one window (a setup wait, not a timing assertion).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import {
  bearer,
  call,
  expectError,
  foundationApp,
  makeKey,
  parseRateLimit,
  quickActor,
  secondApp,
  windowHeadroom,
  type SecondApp,
} from './support.js';

function expectRateLimited(res: LightMyRequestResponse) {
  expectError(res, 429, 'RATE_LIMITED');
  const retry = res.headers['retry-after'];
  expect(String(retry)).toMatch(/^\d+$/);
  return Number(retry);
}

describe.each(dbKinds())('rate limits (%s)', (kind) => {
  let t: TestApp;
  let b: SecondApp;
  beforeAll(async () => {
    t = await foundationApp(kind);
    b = await secondApp(t);
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  it('headers: exact policies, remaining counts going down, tightest policy in X-RateLimit-*', async () => {
    await windowHeadroom(t, 8);
    await windowHeadroom(t, 8, 86_400);
    const owner = await quickActor(t);
    const k = bearer((await makeKey(t.app, owner, { rate_limit_per_minute: 5, rate_limit_per_day: 10 })).key);
    let orgRemaining: number | undefined;
    for (let i = 1; i <= 5; i++) {
      const res = await call(t.app, { url: '/projects', headers: k });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe(
        '"org-minute";q=1000;w=60, "key-minute";q=5;w=60, "key-day";q=10;w=86400',
      );
      const rl = parseRateLimit(res.headers.ratelimit);
      expect(Object.keys(rl)).toEqual(['org-minute', 'key-minute', 'key-day']);
      expect(rl['key-minute'].r).toBe(5 - i);
      expect(rl['key-day'].r).toBe(10 - i);
      if (orgRemaining !== undefined) expect(rl['org-minute'].r).toBe(orgRemaining - 1);
      orgRemaining = rl['org-minute'].r;
      // Both minute policies share the window; the day window is longer.
      expect(rl['key-minute'].t).toBe(rl['org-minute'].t);
      expect(rl['key-minute'].t).toBeGreaterThanOrEqual(1);
      expect(rl['key-minute'].t).toBeLessThanOrEqual(60);
      expect(rl['key-day'].t).toBeGreaterThanOrEqual(rl['key-minute'].t);
      expect(rl['key-day'].t).toBeLessThanOrEqual(86_400);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(5 - i));
      const reset = Number(res.headers['x-ratelimit-reset']);
      const nowSec = Date.now() / 1000;
      expect(reset).toBeGreaterThan(nowSec - 2);
      expect(reset).toBeLessThanOrEqual(nowSec + 62);
    }
    const limited = await call(t.app, { url: '/projects', headers: k });
    const retry = expectRateLimited(limited);
    const rl = parseRateLimit(limited.headers.ratelimit);
    expect(retry).toBeGreaterThanOrEqual(1);
    // Never earlier than the blocking window's reset, and within the minute.
    expect(retry).toBe(rl['key-minute'].t);
    expect(retry).toBeLessThanOrEqual(60);
    expect(rl['key-minute'].r).toBe(0);
    expect(rl['key-day'].r).toBe(5);
    expect(rl['org-minute'].r).toBe(orgRemaining);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-limit']).toBe('5');
    expect(limited.json().error.message).toMatch(/rate limit/i);
  });

  it('a request refused by the per-minute limit spends nothing from the per-day limit', async () => {
    await windowHeadroom(t, 8);
    await windowHeadroom(t, 8, 86_400);
    const owner = await quickActor(t);
    const created = await makeKey(t.app, owner, { rate_limit_per_minute: 3, rate_limit_per_day: 10 });
    const k = bearer(created.key);
    const dayRemaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(t.app, { url: '/projects', headers: k });
      expect(res.statusCode).toBe(200);
      dayRemaining.push(parseRateLimit(res.headers.ratelimit)['key-day'].r);
    }
    expect(dayRemaining).toEqual([9, 8, 7]);
    for (let i = 0; i < 3; i++) {
      const res = await call(t.app, { url: '/projects', headers: k });
      expectRateLimited(res);
      expect(parseRateLimit(res.headers.ratelimit)['key-day'].r).toBe(7);
    }
    // The stored counters agree: three requests counted, for the key and for the organization.
    const dayKeys = await t.deps.redis.keys(`${t.config.REDIS_PREFIX}:rl:key:${created.id}:d:*`);
    expect(dayKeys).toHaveLength(1);
    expect(await t.deps.redis.get(dayKeys[0])).toBe('3');
    // Lifting the minute limit lets the next request through, and it is the 4th of the day.
    const up = await call(t.app, {
      method: 'PUT',
      url: `/api-keys/${created.id}`,
      headers: owner.auth,
      payload: { rate_limit_per_minute: 100 },
    });
    expect(up.statusCode).toBe(200);
    const next = await call(t.app, { url: '/projects', headers: k });
    expect(next.statusCode).toBe(200);
    expect(parseRateLimit(next.headers.ratelimit)['key-day'].r).toBe(6);
  });

  it('the free plan allows 30 requests a minute per organization, keys and sessions together', async () => {
    await windowHeadroom(t, 10);
    const owner = await quickActor(t, { plan: 'free' });
    const k = bearer((await makeKey(t.app, owner)).key); // request 1 of 30
    for (let i = 2; i <= 30; i++) {
      const res = await call(t.app, { url: '/auth/me', headers: i % 2 ? owner.auth : k });
      expect(res.statusCode, `request ${i}`).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"org-minute";q=30;w=60');
      expect(res.headers['x-ratelimit-limit']).toBe('30');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(30 - i));
    }
    for (const h of [owner.auth, k]) {
      const res = await call(t.app, { url: '/auth/me', headers: h });
      const retry = expectRateLimited(res);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(retry).toBe(parseRateLimit(res.headers.ratelimit)['org-minute'].t);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
    }
    // Another organization is not affected.
    const other = await quickActor(t, { plan: 'free' });
    expect((await call(t.app, { url: '/auth/me', headers: other.auth })).headers['x-ratelimit-remaining']).toBe('29');
  });

  it('the pro plan allows 120; enterprise uses its own number', async () => {
    const pro = await quickActor(t, { plan: 'pro' });
    expect((await call(t.app, { url: '/auth/me', headers: pro.auth })).headers['ratelimit-policy']).toBe(
      '"org-minute";q=120;w=60',
    );
    const ent = await quickActor(t);
    expect((await call(t.app, { url: '/auth/me', headers: ent.auth })).headers['ratelimit-policy']).toBe(
      '"org-minute";q=1000;w=60',
    );
    await t.deps.services.orgs.updateOrg(ent.orgId, { rateLimitPerMinute: 2500 });
    expect((await call(t.app, { url: '/auth/me', headers: ent.auth })).headers['ratelimit-policy']).toBe(
      '"org-minute";q=2500;w=60',
    );
  });

  it('refused credentials (401/403) spend nothing from the key quota', async () => {
    await windowHeadroom(t, 8);
    const owner = await quickActor(t);
    const created = await makeKey(t.app, owner, {
      rate_limit_per_minute: 3,
      allowed_endpoints: ['GET /auth/me'],
      allowed_ips: ['10.0.0.0/8'],
    });
    const k = bearer(created.key);
    for (let i = 0; i < 4; i++) {
      expectError(await call(t.app, { url: '/projects', headers: k, remoteAddress: '10.0.0.1' }), 403, 'FORBIDDEN');
      expectError(await call(t.app, { url: '/auth/me', headers: k, remoteAddress: '192.168.0.1' }), 403, 'FORBIDDEN');
    }
    const ok = await call(t.app, { url: '/auth/me', headers: k, remoteAddress: '10.0.0.1' });
    expect(ok.statusCode).toBe(200);
    expect(parseRateLimit(ok.headers.ratelimit)['key-minute'].r).toBe(2);
  });

  it('two API processes sharing one Redis enforce one limit', async () => {
    await windowHeadroom(t, 8);
    const owner = await quickActor(t);
    const k = bearer((await makeKey(t.app, owner, { rate_limit_per_minute: 4 })).key);
    const apps = [t.app, b.app, t.app, b.app];
    for (let i = 0; i < 4; i++) {
      const res = await call(apps[i], { url: '/projects', headers: k });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(3 - i));
    }
    expectRateLimited(await call(t.app, { url: '/projects', headers: k }));
    expectRateLimited(await call(b.app, { url: '/projects', headers: k }));
  });

  it('concurrent requests never overshoot the limit', async () => {
    await windowHeadroom(t, 8);
    const owner = await quickActor(t);
    const k = bearer((await makeKey(t.app, owner, { rate_limit_per_minute: 10 })).key);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(i % 2 ? t.app : b.app, { url: '/auth/me', headers: k })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
  });
});
