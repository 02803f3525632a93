// Guessing credentials is slow and cheap for the service: unknown API keys (each a database
// read) are limited per client IP, and failed logins for one e-mail slow further attempts down
// progressively instead of locking the account, so nobody can lock someone else out.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, testConfig, type TestApp } from '../helpers/app.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { createDeps, type Deps } from '../../src/container.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/lib/logger.js';
import { createLoginThrottle } from '../../src/modules/auth/login-throttle.js';
import { DEFAULT_FAILED_LOOKUPS_PER_MINUTE } from '../../src/modules/access/access.service.js';
import { bearer, call, expectError, makeKey, quickActor, windowHeadroom } from '../integration/foundation/support.js';

const fakeKey = () =>
  `svc_live_${randomBytes(24)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 32)
    .padEnd(32, 'x')}`;

describe('unknown API keys per client IP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('after the limit an IP gets 429 without a database lookup; other IPs and cached keys are unaffected', async () => {
    const owner = await quickActor(t);
    const good = await makeKey(t.app, owner);
    const attacker = '203.0.113.7';
    // The valid key is used once from the attacking address first, so it is cached there.
    expect(
      (await call(t.app, { url: '/auth/me', headers: bearer(good.key), remoteAddress: attacker })).statusCode,
    ).toBe(200);
    let lookups = 0;
    const repo = t.deps.repos.apiKeys;
    const original = repo.findByHash.bind(repo);
    repo.findByHash = async (hash: string) => {
      lookups++;
      return original(hash);
    };
    try {
      await windowHeadroom(t, 10);
      const L = DEFAULT_FAILED_LOOKUPS_PER_MINUTE;
      const statuses: number[] = [];
      for (let i = 0; i < L + 20; i++) {
        const res = await call(t.app, { url: '/projects', headers: bearer(fakeKey()), remoteAddress: attacker });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
          expectError(res, 429, 'RATE_LIMITED');
        } else {
          expectError(res, 401, 'UNAUTHORIZED');
        }
      }
      expect(statuses.slice(0, L)).toEqual(Array(L).fill(401));
      expect(statuses.slice(L)).toEqual(Array(20).fill(429));
      // L failures counted, one more found the limit, the rest never reached the database.
      expect(lookups).toBe(L + 1);

      // Another client is not affected (its unknown key is looked up and refused as usual).
      expectError(
        await call(t.app, { url: '/projects', headers: bearer(fakeKey()), remoteAddress: '198.51.100.9' }),
        401,
        'UNAUTHORIZED',
      );
      expect(lookups).toBe(L + 2);
      // A key already verified in this process keeps working from the blocked address.
      expect(
        (await call(t.app, { url: '/auth/me', headers: bearer(good.key), remoteAddress: attacker })).statusCode,
      ).toBe(200);
    } finally {
      repo.findByHash = original;
    }
  });
});

describe('failed logins for one e-mail address: a progressive delay, not a lock-out', () => {
  let app: FastifyInstance;
  let deps: Deps;
  let db: TestDb;
  /** Waits the throttle asked for, in order (recorded instead of slept, so the test is quick). */
  const waits: number[] = [];
  beforeAll(async () => {
    const config = testConfig();
    db = await createTestDb('pglite');
    deps = await createDeps(config, {
      db: db.db,
      redisUrl: inject('redisUrl'),
      logger: createLogger({ level: 'silent', pretty: false }),
      migrate: false,
    });
    const appDeps = appDepsFrom(deps);
    appDeps.loginThrottle = createLoginThrottle(deps.redis, (e) => deps.keys.rate(`login-delay:${e}`), {
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    app = await buildApp(appDeps);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await deps?.close();
    await db?.close();
  });

  const login = (email: string, password: string, ip: string) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: ip });

  it('others failing for an address slow its logins down progressively; its owner still gets in', async () => {
    const email = `victim-${randomBytes(4).toString('hex')}@example.test`;
    const password = 'correct horse battery staple';
    await deps.services.orgs.createUser({ email, password, orgName: 'Victim Org', role: 'owner', plan: 'free' });
    // The owner has logged in from their usual address before.
    expect((await login(email, password, '192.0.2.10')).statusCode).toBe(200);

    // Twelve wrong passwords, each from its own address (so no per-IP limit is involved), all at
    // once: a burst queues like the same attempts one after another.
    const before = waits.length;
    const statuses = (
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          login(i % 2 ? email.toUpperCase() : email, `guess-${i}`, `203.0.113.${i + 1}`),
        ),
      )
    ).map((r) => r.statusCode);
    const attackWaits = waits.slice(before).sort((a, b) => a - b);
    // Five attempts cost nothing; after that every attempt waits, longer each time.
    expect(statuses.filter((st) => st === 401).length).toBeGreaterThanOrEqual(8);
    expect(attackWaits.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < attackWaits.length; i++) expect(attackWaits[i]).toBeGreaterThan(attackWaits[i - 1]);
    // Once the queue is longer than the longest hold, attempts are told when to retry (bounded).
    expect(statuses).toContain(429);
    for (const st of statuses) expect([401, 429]).toContain(st);

    // A new address with the right password is held or told to retry shortly — never locked out for long.
    const fresh = await login(email, password, '198.51.100.77');
    if (fresh.statusCode === 429) expect(Number(fresh.headers['retry-after'])).toBeLessThanOrEqual(60);
    else expect(fresh.statusCode).toBe(200);

    // The owner's usual address skips the queue and logs in at once.
    const n = waits.length;
    const own = await login(email, password, '192.0.2.10');
    expect(own.statusCode, own.body).toBe(200);
    expect(waits.length).toBe(n);

    // A successful login clears the failures: the next wrong password costs no wait again.
    const m = waits.length;
    expect((await login(email, 'wrong again', '203.0.113.200')).statusCode).toBe(401);
    expect(waits.length).toBe(m);
  });

  it('the per-IP limit stays: 20 attempts a minute from one address', async () => {
    await windowHeadroom({ deps }, 20);
    const ip = '203.0.113.250';
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => login(`nobody${i}@example.test`, 'x', ip)));
    expect(first.map((r) => r.statusCode)).toEqual(Array(20).fill(401));
    for (const r of await Promise.all([
      login('nobody-a@example.test', 'x', ip),
      login('nobody-b@example.test', 'x', ip),
    ])) {
      expect(r.statusCode).toBe(429);
      expect(String(r.headers['ratelimit-policy'])).toContain('"login-ip";q=20;w=60');
    }
  });
});
