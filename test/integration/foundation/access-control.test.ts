// Tenant isolation (organizations), mode isolation (live / test), and changes to keys, users,
// organizations and sessions taking effect on the very next request, in this process and in
// another API process sharing the same Redis and database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import {
  bearer,
  call,
  dataOf,
  expectError,
  foundationApp,
  insertDocument,
  makeKey,
  makeProject,
  parseRateLimit,
  quickActor,
  secondApp,
  type SecondApp,
} from './support.js';

describe.each(dbKinds())('access control (%s)', (kind) => {
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

  describe('isolation', () => {
    it("org A cannot read, list, change or delete org B's projects: always 404, never 403", async () => {
      const a = await quickActor(t);
      const other = await quickActor(t);
      const bp = await makeProject(t.app, other.auth, { name: 'B secret plans', description: 'only for B' });
      const ap = await makeProject(t.app, a.auth, { name: 'A project' });
      const aKey = await makeKey(t.app, a);
      for (const headers of [a.auth, bearer(aKey.key)]) {
        expectError(await call(t.app, { url: `/projects/${bp.id}`, headers }), 404, 'NOT_FOUND');
        expectError(await call(t.app, { url: `/projects/${bp.id}/stats`, headers }), 404, 'NOT_FOUND');
        expectError(
          await call(t.app, { method: 'PUT', url: `/projects/${bp.id}`, headers, payload: { name: 'pwned' } }),
          404,
          'NOT_FOUND',
        );
        expectError(
          await call(t.app, { method: 'POST', url: `/projects/${bp.id}/archive`, headers }),
          404,
          'NOT_FOUND',
        );
        expectError(
          await call(t.app, { method: 'POST', url: `/projects/${bp.id}/unarchive`, headers }),
          404,
          'NOT_FOUND',
        );
        expectError(await call(t.app, { method: 'DELETE', url: `/projects/${bp.id}`, headers }), 404, 'NOT_FOUND');
        expectError(
          await call(t.app, { method: 'DELETE', url: `/projects/${bp.id}?delete_documents=true`, headers }),
          404,
          'NOT_FOUND',
        );
        const list = await call(t.app, { url: '/projects?include_archived=true&limit=100', headers });
        expect(dataOf(list).map((p: { id: string }) => p.id)).toEqual([ap.id]);
        expect(list.json().pagination.total).toBe(1);
        expect(dataOf(await call(t.app, { url: '/projects?search=secret&include_archived=true', headers }))).toEqual(
          [],
        );
      }
      // Moving documents into another org's project is refused and moves nothing.
      const doc = await insertDocument(t, { orgId: a.orgId, projectId: ap.id });
      expectError(
        await call(t.app, { method: 'DELETE', url: `/projects/${ap.id}?move_to_project_id=${bp.id}`, headers: a.auth }),
        400,
        'VALIDATION_ERROR',
      );
      const { rows } = await t.testDb.db.query<{ project_id: string }>(
        'SELECT project_id FROM documents WHERE id = $1',
        [doc],
      );
      expect(rows[0].project_id).toBe(ap.id);
      // B's project is untouched.
      const still = dataOf(await call(t.app, { url: `/projects/${bp.id}`, headers: other.auth }));
      expect(still).toMatchObject({ name: 'B secret plans', status: 'active' });
    });

    it("org A cannot read, list, change or revoke org B's API keys: always 404, never 403", async () => {
      const a = await quickActor(t);
      const other = await quickActor(t);
      const bKey = await makeKey(t.app, other, { name: 'B key' });
      const aKey = await makeKey(t.app, a, { name: 'A key' });
      for (const headers of [a.auth, bearer(aKey.key)]) {
        expectError(await call(t.app, { url: `/api-keys/${bKey.id}`, headers }), 404, 'NOT_FOUND');
        expectError(
          await call(t.app, {
            method: 'PUT',
            url: `/api-keys/${bKey.id}`,
            headers,
            payload: { is_active: false, name: 'x' },
          }),
          404,
          'NOT_FOUND',
        );
        expectError(await call(t.app, { method: 'DELETE', url: `/api-keys/${bKey.id}`, headers }), 404, 'NOT_FOUND');
        const list = await call(t.app, { url: '/api-keys?limit=100', headers });
        expect(dataOf(list).map((k: { id: string }) => k.id)).toEqual([aKey.id]);
        expect(list.json().pagination.total).toBe(1);
      }
      // B's key still works and is unchanged.
      expect((await call(t.app, { url: '/auth/me', headers: bearer(bKey.key) })).statusCode).toBe(200);
      expect(dataOf(await call(t.app, { url: `/api-keys/${bKey.id}`, headers: other.auth }))).toMatchObject({
        name: 'B key',
        status: 'active',
        is_active: true,
      });
    });

    it('a key authenticates as its own organization only', async () => {
      const a = await quickActor(t);
      const key = await makeKey(t.app, a);
      const me = dataOf(await call(t.app, { url: '/auth/me', headers: bearer(key.key) }));
      expect(me).toMatchObject({
        organization: { id: a.orgId },
        user: { id: a.userId },
        environment: 'live',
        auth_method: 'api_key',
        api_key: { id: key.id },
      });
    });

    it('live and test data never mix', async () => {
      const owner = await quickActor(t);
      const testHeader = { 'x-environment': 'test' };
      const liveProject = await makeProject(t.app, owner.auth, { name: 'Live one' });
      const testProject = await makeProject(t.app, { ...owner.auth, ...testHeader }, { name: 'Test one' });
      expect(liveProject.environment).toBe('live');
      expect(testProject.environment).toBe('test');
      const liveKey = await makeKey(t.app, owner, { name: 'live' });
      const testKey = await makeKey(t.app, owner, { name: 'sandbox', environment: 'test' });
      expect(liveKey.key).toMatch(/^svc_live_/);
      expect(testKey.key).toMatch(/^svc_test_/);
      const ids = (res: { json(): { data: { id: string }[] } }) =>
        res
          .json()
          .data.map((x) => x.id)
          .sort();

      // A svc_test_ key sees test rows only, whatever X-Environment says.
      for (const extra of [{}, { 'x-environment': 'live' }] as Record<string, string>[]) {
        const tk = { ...bearer(testKey.key), ...extra };
        expect(ids(await call(t.app, { url: '/projects?include_archived=true', headers: tk }))).toEqual([
          testProject.id,
        ]);
        expect(ids(await call(t.app, { url: '/api-keys', headers: tk }))).toEqual([testKey.id]);
        expectError(await call(t.app, { url: `/projects/${liveProject.id}`, headers: tk }), 404, 'NOT_FOUND');
        expectError(
          await call(t.app, { method: 'PUT', url: `/projects/${liveProject.id}`, headers: tk, payload: { name: 'x' } }),
          404,
          'NOT_FOUND',
        );
        expectError(
          await call(t.app, { method: 'DELETE', url: `/projects/${liveProject.id}`, headers: tk }),
          404,
          'NOT_FOUND',
        );
        expectError(await call(t.app, { url: `/api-keys/${liveKey.id}`, headers: tk }), 404, 'NOT_FOUND');
        expectError(
          await call(t.app, { method: 'DELETE', url: `/api-keys/${liveKey.id}`, headers: tk }),
          404,
          'NOT_FOUND',
        );
        expect(dataOf(await call(t.app, { url: '/auth/me', headers: tk })).environment).toBe('test');
      }
      const madeByTestKey = await makeProject(t.app, bearer(testKey.key), { name: 'From the sandbox' });
      expect(madeByTestKey.environment).toBe('test');

      // A svc_live_ key sees live rows only.
      const lk = bearer(liveKey.key);
      expect(ids(await call(t.app, { url: '/projects?include_archived=true', headers: lk }))).toEqual([liveProject.id]);
      expect(ids(await call(t.app, { url: '/api-keys', headers: lk }))).toEqual([liveKey.id]);
      expectError(await call(t.app, { url: `/projects/${testProject.id}`, headers: lk }), 404, 'NOT_FOUND');
      expectError(await call(t.app, { url: `/api-keys/${testKey.id}`, headers: lk }), 404, 'NOT_FOUND');
      expectError(
        await call(t.app, { url: `/projects/${testProject.id}`, headers: { ...lk, ...testHeader } }),
        404,
        'NOT_FOUND',
      );

      // JWT sessions: live unless X-Environment: test (case-insensitive value).
      expect(ids(await call(t.app, { url: '/projects', headers: owner.auth }))).toEqual([liveProject.id]);
      expect(ids(await call(t.app, { url: '/projects', headers: { ...owner.auth, 'x-environment': 'live' } }))).toEqual(
        [liveProject.id],
      );
      expect(ids(await call(t.app, { url: '/projects', headers: { ...owner.auth, ...testHeader } }))).toEqual(
        [testProject.id, madeByTestKey.id].sort(),
      );
      expect(ids(await call(t.app, { url: '/projects', headers: { ...owner.auth, 'x-environment': 'TEST' } }))).toEqual(
        [testProject.id, madeByTestKey.id].sort(),
      );
      expect(ids(await call(t.app, { url: '/api-keys', headers: { ...owner.auth, ...testHeader } }))).toEqual([
        testKey.id,
      ]);
      expectError(await call(t.app, { url: `/projects/${testProject.id}`, headers: owner.auth }), 404, 'NOT_FOUND');
      const bad = expectError(
        await call(t.app, { url: '/projects', headers: { ...owner.auth, 'x-environment': 'staging' } }),
        400,
        'VALIDATION_ERROR',
      );
      expect(bad.message).toMatch(/X-Environment/);

      // Keys are minted in the caller's mode; a key cannot mint keys of the other mode.
      expect((await makeKey(t.app, owner, {}, testHeader)).key).toMatch(/^svc_test_/);
      expect((await makeKey(t.app, { auth: bearer(testKey.key) })).key).toMatch(/^svc_test_/);
      expectError(
        await call(t.app, {
          method: 'POST',
          url: '/api-keys',
          headers: bearer(testKey.key),
          payload: { name: 'escalate', environment: 'live' },
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await call(t.app, {
          method: 'POST',
          url: '/api-keys',
          headers: bearer(liveKey.key),
          payload: { name: 'other', environment: 'test' },
        }),
        403,
        'FORBIDDEN',
      );
      const { rows } = await t.testDb.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM api_keys WHERE org_id = $1 AND environment = 'live'",
        [owner.orgId],
      );
      expect(rows[0].n).toBe(1);
    });
  });

  describe('changes take effect on the next request, across processes', () => {
    const status = async (
      app: FastifyInstance,
      headers: Record<string, string>,
      url = '/projects',
      method: 'GET' | 'POST' = 'GET',
      remoteAddress?: string,
    ) =>
      (await call(app, { url, headers, method, remoteAddress, payload: method === 'POST' ? { name: 'p' } : undefined }))
        .statusCode;
    /** Both apps answer `expected` (each has the credential cached from earlier requests). */
    const both = async (
      headers: Record<string, string>,
      expected: number,
      url = '/projects',
      method: 'GET' | 'POST' = 'GET',
    ) => {
      expect(await status(t.app, headers, url, method), `app A ${method} ${url}`).toBe(expected);
      expect(await status(b.app, headers, url, method), `app B ${method} ${url}`).toBe(expected);
    };

    it('revoking a key on one app refuses it on both at once', async () => {
      const owner = await quickActor(t);
      const k1 = await makeKey(t.app, owner);
      const k2 = await makeKey(t.app, owner);
      await both(bearer(k1.key), 200);
      await both(bearer(k2.key), 200);
      dataOf(await call(t.app, { method: 'DELETE', url: `/api-keys/${k1.id}`, headers: owner.auth }));
      await both(bearer(k1.key), 401);
      // …and the other way round.
      dataOf(await call(b.app, { method: 'DELETE', url: `/api-keys/${k2.id}`, headers: owner.auth }));
      await both(bearer(k2.key), 401);
      const got = dataOf(await call(t.app, { url: `/api-keys/${k2.id}`, headers: owner.auth }));
      expect(got).toMatchObject({ status: 'revoked', is_active: false });
      expect(got.revoked_at).toEqual(expect.any(String));
      // A revoked key cannot be brought back.
      expectError(
        await call(t.app, {
          method: 'PUT',
          url: `/api-keys/${k2.id}`,
          headers: owner.auth,
          payload: { is_active: true },
        }),
        409,
        'CONFLICT',
      );
      await both(bearer(k2.key), 401);
      // Revoking twice is harmless and keeps the first revocation time.
      const again = dataOf(await call(t.app, { method: 'DELETE', url: `/api-keys/${k2.id}`, headers: owner.auth }));
      expect(again.revoked_at).toBe(got.revoked_at);
    });

    it('deactivating and reactivating a key on one app is seen by the other at once', async () => {
      const owner = await quickActor(t);
      const k = await makeKey(t.app, owner);
      await both(bearer(k.key), 200);
      dataOf(
        await call(b.app, {
          method: 'PUT',
          url: `/api-keys/${k.id}`,
          headers: owner.auth,
          payload: { is_active: false },
        }),
      );
      await both(bearer(k.key), 401);
      dataOf(
        await call(b.app, {
          method: 'PUT',
          url: `/api-keys/${k.id}`,
          headers: owner.auth,
          payload: { is_active: true },
        }),
      );
      await both(bearer(k.key), 200);
    });

    it('a changed allowed_ips list applies at once, whether it narrows or widens', async () => {
      const owner = await quickActor(t);
      const k = await makeKey(t.app, owner, { allowed_ips: ['10.0.0.0/8'] });
      for (const app of [t.app, b.app]) {
        expect(await status(app, bearer(k.key), '/projects', 'GET', '10.1.1.1')).toBe(200);
        expect(await status(app, bearer(k.key), '/projects', 'GET', '192.168.1.1')).toBe(403);
      }
      dataOf(
        await call(t.app, {
          method: 'PUT',
          url: `/api-keys/${k.id}`,
          headers: owner.auth,
          payload: { allowed_ips: ['192.168.0.0/16'] },
        }),
      );
      for (const app of [t.app, b.app]) {
        expect(await status(app, bearer(k.key), '/projects', 'GET', '192.168.1.1')).toBe(200);
        expect(await status(app, bearer(k.key), '/projects', 'GET', '10.1.1.1')).toBe(403);
      }
      // An empty list lifts the restriction.
      dataOf(
        await call(b.app, {
          method: 'PUT',
          url: `/api-keys/${k.id}`,
          headers: owner.auth,
          payload: { allowed_ips: [] },
        }),
      );
      for (const app of [t.app, b.app])
        expect(await status(app, bearer(k.key), '/projects', 'GET', '172.16.0.1')).toBe(200);
    });

    it('a revoked key used from a refused address is 401, not 403', async () => {
      const owner = await quickActor(t);
      const k = await makeKey(t.app, owner, { allowed_ips: ['10.0.0.0/8'] });
      expect(await status(b.app, bearer(k.key), '/projects', 'GET', '10.1.1.1')).toBe(200);
      dataOf(await call(t.app, { method: 'DELETE', url: `/api-keys/${k.id}`, headers: owner.auth }));
      expectError(
        await call(b.app, { url: '/projects', headers: bearer(k.key), remoteAddress: '192.168.1.1' }),
        401,
        'UNAUTHORIZED',
      );
    });

    it('changed per-key rate limits apply at once on the other app', async () => {
      const owner = await quickActor(t);
      const k = await makeKey(t.app, owner, { rate_limit_per_minute: 1000 });
      const first = await call(b.app, { url: '/projects', headers: bearer(k.key) });
      expect(parseRateLimit(first.headers['ratelimit-policy'])['key-minute']).toEqual({ q: 1000, w: 60 });
      dataOf(
        await call(t.app, {
          method: 'PUT',
          url: `/api-keys/${k.id}`,
          headers: owner.auth,
          payload: { rate_limit_per_minute: 500, rate_limit_per_day: 9000 },
        }),
      );
      const next = await call(b.app, { url: '/projects', headers: bearer(k.key) });
      const policy = parseRateLimit(next.headers['ratelimit-policy']);
      expect(policy['key-minute']).toEqual({ q: 500, w: 60 });
      expect(policy['key-day']).toEqual({ q: 9000, w: 86400 });
      // null removes a per-key limit.
      dataOf(
        await call(t.app, {
          method: 'PUT',
          url: `/api-keys/${k.id}`,
          headers: owner.auth,
          payload: { rate_limit_per_minute: null },
        }),
      );
      const last = await call(b.app, { url: '/projects', headers: bearer(k.key) });
      expect(Object.keys(parseRateLimit(last.headers['ratelimit-policy'])).sort()).toEqual(['key-day', 'org-minute']);
    });

    it("demoting the key's creator shrinks the key (and the creator's session) on the next request", async () => {
      const owner = await quickActor(t);
      const admin = await quickActor(t, { role: 'admin', orgId: owner.orgId });
      const k = bearer((await makeKey(t.app, admin)).key);
      for (const h of [k, admin.auth]) {
        await both(h, 200, '/api-keys');
        await both(h, 201, '/projects', 'POST');
      }
      await t.deps.services.orgs.updateUser(admin.userId, { role: 'member' });
      for (const h of [k, admin.auth]) {
        await both(h, 403, '/api-keys');
        await both(h, 201, '/projects', 'POST');
      }
      // Demoted from the other process this time.
      await b.deps.services.orgs.updateUser(admin.userId, { role: 'viewer' });
      for (const h of [k, admin.auth]) {
        await both(h, 403, '/projects', 'POST');
        await both(h, 200, '/projects');
      }
      await t.deps.services.orgs.updateUser(admin.userId, { role: 'admin' });
      await both(k, 200, '/api-keys');
    });

    it("deactivating the key's creator kills the key and the creator's sessions", async () => {
      const owner = await quickActor(t);
      const admin = await quickActor(t, { role: 'admin', orgId: owner.orgId });
      const k = bearer((await makeKey(t.app, admin)).key);
      await both(k, 200);
      await both(admin.auth, 200);
      await t.deps.services.orgs.updateUser(admin.userId, { isActive: false });
      await both(k, 401);
      await both(admin.auth, 401);
      // Others in the organization are unaffected.
      await both(owner.auth, 200);
      await b.deps.services.orgs.updateUser(admin.userId, { isActive: true });
      await both(k, 200);
    });

    it('suspending the organization stops its keys and sessions; reinstating restores them', async () => {
      const owner = await quickActor(t);
      const k = bearer((await makeKey(t.app, owner)).key);
      await both(k, 200);
      await both(owner.auth, 200);
      await t.deps.services.orgs.updateOrg(owner.orgId, { status: 'suspended' });
      await both(k, 401);
      await both(owner.auth, 401);
      await t.deps.services.orgs.updateOrg(owner.orgId, { status: 'active' });
      await both(k, 200);
    });

    it('changing the plan changes the organization limit at once', async () => {
      const owner = await quickActor(t, { plan: 'pro' });
      const first = await call(b.app, { url: '/projects', headers: owner.auth });
      expect(parseRateLimit(first.headers['ratelimit-policy'])['org-minute']).toEqual({ q: 120, w: 60 });
      await t.deps.services.orgs.updateOrg(owner.orgId, { plan: 'enterprise', rateLimitPerMinute: 5000 });
      const next = await call(b.app, { url: '/projects', headers: owner.auth });
      expect(parseRateLimit(next.headers['ratelimit-policy'])['org-minute']).toEqual({ q: 5000, w: 60 });
    });

    it('logout on one app kills the access token on the other', async () => {
      const email = `lo-${Date.now()}@example.test`;
      await t.deps.services.orgs.createUser({
        email,
        password: 'long enough pw',
        orgName: `Org ${email}`,
        role: 'owner',
      });
      const pair = dataOf(
        await call(t.app, { method: 'POST', url: '/auth/login', payload: { email, password: 'long enough pw' } }),
      );
      const h = bearer(pair.accessToken);
      await both(h, 200);
      dataOf(await call(b.app, { method: 'POST', url: '/auth/logout', headers: h }));
      await both(h, 401);
      expectError(
        await call(t.app, { method: 'POST', url: '/auth/refresh', payload: { refreshToken: pair.refreshToken } }),
        401,
        'UNAUTHORIZED',
      );
    });
  });
});
