// Guessing credentials is slow and cheap for the service: unknown API keys (each a database
// read) are limited per client IP, and failed logins for one e-mail slow further attempts down
// progressively instead of locking the account, so nobody can lock someone else out.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { DEFAULT_FAILED_LOOKUPS_PER_MINUTE } from '../../src/modules/access/access.service.js';
import { bearer, call, expectError, makeKey, quickActor, windowHeadroom } from '../integration/foundation/support.js';

const fakeKey = () => `svc_live_${randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 32).padEnd(32, 'x')}`;

describe('unknown API keys per client IP', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp('pglite'); });
  afterAll(async () => { await t?.close(); });

  it('after the limit an IP gets 429 without a database lookup; other IPs and cached keys are unaffected', async () => {
    const owner = await quickActor(t);
    const good = await makeKey(t.app, owner);
    const attacker = '203.0.113.7';
    // The valid key is used once from the attacking address first, so it is cached there.
    expect((await call(t.app, { url: '/auth/me', headers: bearer(good.key), remoteAddress: attacker })).statusCode).toBe(200);
    let lookups = 0;
    const repo = t.deps.repos.apiKeys;
    const original = repo.findByHash.bind(repo);
    repo.findByHash = async (hash: string) => { lookups++; return original(hash); };
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
      expectError(await call(t.app, { url: '/projects', headers: bearer(fakeKey()), remoteAddress: '198.51.100.9' }), 401, 'UNAUTHORIZED');
      expect(lookups).toBe(L + 2);
      // A key already verified in this process keeps working from the blocked address.
      expect((await call(t.app, { url: '/auth/me', headers: bearer(good.key), remoteAddress: attacker })).statusCode).toBe(200);
    } finally {
      repo.findByHash = original;
    }
  });
});
