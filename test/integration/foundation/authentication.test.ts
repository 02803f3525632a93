// The authentication matrix (401) and the authorization checks that follow it (403).
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { appDepsFrom, buildApp } from '../../../src/http/app.js';
import { createAccessService } from '../../../src/modules/access/access.service.js';
import { createRateLimiter } from '../../../src/modules/access/rate-limit.js';
import {
  bearer,
  call,
  dataOf,
  expectError,
  makeKey,
  quickActor,
  tokenFor,
  foundationApp,
  type QuickActor,
} from './support.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe.each(dbKinds())('authentication (%s)', (kind) => {
  let t: TestApp;
  let owner: QuickActor;
  let liveKey: string;
  beforeAll(async () => {
    t = await foundationApp(kind);
    owner = await quickActor(t);
    liveKey = (await makeKey(t.app, owner)).key;
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (headers: Record<string, string>, remoteAddress?: string) =>
    call(t.app, { url: '/projects', headers, remoteAddress });
  const expect401 = async (headers: Record<string, string>) => expectError(await get(headers), 401, 'UNAUTHORIZED');

  it('the valid credentials work (the baseline for everything below)', async () => {
    expect((await get(owner.auth)).statusCode).toBe(200);
    expect((await get(bearer(liveKey))).statusCode).toBe(200);
  });

  it('missing or malformed Authorization header → 401', async () => {
    await expect401({});
    await expect401({ authorization: '' });
    await expect401({ authorization: 'Bearer' });
    await expect401({ authorization: 'Bearer ' });
    await expect401({ authorization: `Bearer ${owner.accessToken} extra` });
    await expect401({ authorization: `Bearer ${liveKey} ${liveKey}` });
    await expect401({ authorization: owner.accessToken });
    await expect401({ authorization: liveKey });
    await expect401({ authorization: `Bearer:${liveKey}` });
    await expect401({ authorization: 'Bearer not-a-token' });
  });

  it('wrong scheme → 401, even with a valid credential after it', async () => {
    await expect401({ authorization: `Basic ${Buffer.from(`${owner.email}:pw`).toString('base64')}` });
    await expect401({ authorization: `Basic ${liveKey}` });
    await expect401({ authorization: `Token ${liveKey}` });
    await expect401({ authorization: `Token ${owner.accessToken}` });
    await expect401({ authorization: `Digest ${owner.accessToken}` });
  });

  it('the scheme name is case-insensitive', async () => {
    expect((await get({ authorization: `bearer ${owner.accessToken}` })).statusCode).toBe(200);
    expect((await get({ authorization: `BEARER ${liveKey}` })).statusCode).toBe(200);
  });

  it('tampered JWTs → 401', async () => {
    const [h, p, s] = owner.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const other = await quickActor(t);
    // payload changed (another user, a later expiry), signature kept
    await expect401(bearer(`${h}.${b64({ ...claims, sub: other.userId, org: other.orgId })}.${s}`));
    await expect401(bearer(`${h}.${b64({ ...claims, exp: claims.exp + 86_400 })}.${s}`));
    // signature changed
    const mid = Math.floor(s.length / 2);
    await expect401(bearer(`${h}.${p}.${s.slice(0, mid)}${s[mid] === 'x' ? 'y' : 'x'}${s.slice(mid + 1)}`));
    await expect401(bearer(`${h}.${p}.${s}AA`));
    await expect401(bearer(`${h}.${p}.`));
    // alg none
    await expect401(bearer(`${b64({ alg: 'none', typ: 'JWT' })}.${p}.`));
    await expect401(bearer(`${b64({ alg: 'none', typ: 'JWT' })}.${p}.${s}`));
    // other algorithms, even when correctly computed with our secret
    const hs512Header = b64({ alg: 'HS512', typ: 'JWT' });
    const hs512 = createHmac('sha512', t.config.JWT_SECRET).update(`${hs512Header}.${p}`).digest('base64url');
    await expect401(bearer(`${hs512Header}.${p}.${hs512}`));
    const rsHeader = b64({ alg: 'RS256', typ: 'JWT' });
    await expect401(bearer(`${rsHeader}.${p}.${s}`));
    await expect401(
      bearer(
        `${rsHeader}.${p}.${createHmac('sha256', t.config.JWT_SECRET).update(`${rsHeader}.${p}`).digest('base64url')}`,
      ),
    );
    // signed with another secret
    const forged = `${h}.${p}.${createHmac('sha256', 'x'.repeat(64)).update(`${h}.${p}`).digest('base64url')}`;
    await expect401(bearer(forged));
    // the untampered token still works
    expect((await get(owner.auth)).statusCode).toBe(200);
  });

  it('expired JWT → 401 with its own code, TOKEN_EXPIRED, and a message that says so', async () => {
    for (const offset of [-1, -3600]) {
      const err = expectError(
        await get(bearer(tokenFor(t, owner.userId, owner.orgId, owner.sessionId, offset))),
        401,
        'TOKEN_EXPIRED',
      );
      expect(err.message).toMatch(/expired.*POST \/auth\/refresh/);
    }
    expect((await get(bearer(tokenFor(t, owner.userId, owner.orgId, owner.sessionId, 60)))).statusCode).toBe(200);
  });

  it('a validly signed JWT for a user or org that does not exist → 401', async () => {
    await expect401(bearer(tokenFor(t, 'usr_01NOSUCHUSER00000000000000', owner.orgId, owner.sessionId)));
    await expect401(bearer(tokenFor(t, owner.userId, 'org_01NOSUCHORG000000000000000', owner.sessionId)));
  });

  it('a refresh token is not an access token', async () => {
    await expect401(bearer(`rt_${'a'.repeat(48)}`));
  });

  it('revoked, inactive and unknown keys → the same 401 body (existence is not revealed)', async () => {
    const revoked = await makeKey(t.app, owner);
    const inactive = await makeKey(t.app, owner);
    expect((await get(bearer(revoked.key))).statusCode).toBe(200);
    expect((await get(bearer(inactive.key))).statusCode).toBe(200);
    dataOf(await call(t.app, { method: 'DELETE', url: `/api-keys/${revoked.id}`, headers: owner.auth }));
    dataOf(
      await call(t.app, {
        method: 'PUT',
        url: `/api-keys/${inactive.id}`,
        headers: owner.auth,
        payload: { is_active: false },
      }),
    );
    const unknown = `svc_live_${'A1b2C3d4'.repeat(4)}`;
    const unknownTest = `svc_test_${randomBytes(16).toString('hex')}`;
    const messages = [];
    for (const key of [revoked.key, inactive.key, unknown, unknownTest])
      messages.push((await expect401(bearer(key))).message);
    expect(new Set(messages).size).toBe(1);
  });

  it('malformed keys → 401', async () => {
    const body = liveKey.slice('svc_live_'.length);
    for (const bad of [
      'svc_live_short',
      `svc_live_${body}x`,
      `svc_live_${body.slice(1)}`,
      `svc_live_${body.slice(1)}!`,
      `svc_prod_${body}`,
      `svc__${body}`,
      'svc_',
      `SVC_LIVE_${body}`,
    ]) {
      await expect401(bearer(bad));
    }
  });

  it('an expired key → 401 (expiry moved into the past, stamp bumped)', async () => {
    const k = await makeKey(t.app, owner, { expires_in_days: 1 });
    expect((await get(bearer(k.key))).statusCode).toBe(200);
    await t.testDb.db.query("UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = $1", [k.id]);
    await t.deps.stamps.bump('key', k.id);
    await expect401(bearer(k.key));
    expect(dataOf(await call(t.app, { url: `/api-keys/${k.id}`, headers: owner.auth })).status).toBe('expired');
  });

  it('an expired key → 401 even while it sits in the credential cache (no database or stamp change)', async () => {
    // A copy of the app whose access service reads a clock the test controls.
    let clock = Date.now();
    const d = t.deps;
    const access = createAccessService({
      orgs: d.repos.orgs,
      apiKeys: d.repos.apiKeys,
      refreshTokens: d.repos.refreshTokens,
      stamps: d.stamps,
      limiter: createRateLimiter(d.redis),
      keys: d.keys,
      jwtSecret: t.config.JWT_SECRET,
      planLimits: { enterprise: t.config.ENTERPRISE_RATE_LIMIT_PER_MINUTE },
      now: () => clock,
    });
    const app: FastifyInstance = await buildApp({ ...appDepsFrom(d), access });
    try {
      const k = await makeKey(t.app, owner, { expires_in_days: 2 });
      const jwt = bearer(tokenFor(t, owner.userId, owner.orgId, owner.sessionId, 900));
      expect((await call(app, { url: '/projects', headers: bearer(k.key) })).statusCode).toBe(200);
      expect((await call(app, { url: '/projects', headers: jwt })).statusCode).toBe(200);
      clock += 86_400_000;
      expect((await call(app, { url: '/projects', headers: bearer(k.key) })).statusCode).toBe(200);
      clock += 86_400_000 + 1000;
      const err = expectError(await call(app, { url: '/projects', headers: bearer(k.key) }), 401, 'UNAUTHORIZED');
      expect(err.message).toMatch(/expired/i);
      // The same clock expires the access token (15 minutes), which says so with its own code.
      expectError(await call(app, { url: '/projects', headers: jwt }), 401, 'TOKEN_EXPIRED');
    } finally {
      await app.close();
    }
  });

  describe('403 FORBIDDEN', () => {
    const expect403 = async (
      headers: Record<string, string>,
      remoteAddress: string,
      url = '/projects',
      method: 'GET' | 'POST' | 'DELETE' | 'PUT' = 'GET',
      payload?: unknown,
    ) => expectError(await call(t.app, { method, url, headers, remoteAddress, payload }), 403, 'FORBIDDEN');
    const status = async (
      headers: Record<string, string>,
      remoteAddress: string,
      url = '/projects',
      method: 'GET' | 'POST' = 'GET',
      payload?: unknown,
    ) => (await call(t.app, { method, url, headers, remoteAddress, payload })).statusCode;

    it('allowed_ips: exact IPv4 and IPv4 CIDR, including IPv4-mapped IPv6 client addresses', async () => {
      const k = bearer((await makeKey(t.app, owner, { allowed_ips: ['203.0.113.5', '10.0.0.0/8'] })).key);
      expect(await status(k, '203.0.113.5')).toBe(200);
      expect(await status(k, '10.20.30.40')).toBe(200);
      expect(await status(k, '::ffff:10.20.30.40')).toBe(200);
      expect(await status(k, '::ffff:203.0.113.5')).toBe(200);
      const err = await expect403(k, '203.0.113.6');
      expect(err.message).toMatch(/IP/);
      await expect403(k, '11.0.0.1');
      await expect403(k, '::ffff:11.0.0.1');
      await expect403(k, '2001:db8::1');
      await expect403(k, '127.0.0.1');
    });

    it('allowed_ips: IPv6 addresses and CIDRs, and rules written in IPv4-mapped form', async () => {
      const k = bearer(
        (await makeKey(t.app, owner, { allowed_ips: ['2001:db8:abcd::/48', '::1', '::ffff:192.0.2.0/120'] })).key,
      );
      expect(await status(k, '2001:db8:abcd:12::7')).toBe(200);
      expect(await status(k, '2001:DB8:ABCD::1')).toBe(200);
      expect(await status(k, '::1')).toBe(200);
      expect(await status(k, '192.0.2.77')).toBe(200);
      expect(await status(k, '::ffff:192.0.2.77')).toBe(200);
      await expect403(k, '2001:db8:abce::1');
      await expect403(k, '192.0.3.1');
      await expect403(k, '127.0.0.1');
    });

    it('allowed_endpoints: "GET /projects" allows listing, not creating or reading one', async () => {
      const k = bearer((await makeKey(t.app, owner, { allowed_endpoints: ['GET /projects'] })).key);
      expect(await status(k, '127.0.0.1')).toBe(200);
      expect(await status(k, '127.0.0.1', '/projects?limit=5&search=x')).toBe(200);
      const err = await expect403(k, '127.0.0.1', '/projects', 'POST', { name: 'x' });
      expect(err.message).toMatch(/endpoint/);
      await expect403(k, '127.0.0.1', '/projects/prj_1');
      await expect403(k, '127.0.0.1', '/api-keys');
      await expect403(k, '127.0.0.1', '/auth/me');
      // Nothing was created by the refused POST.
      expect(dataOf(await call(t.app, { url: '/projects?search=x', headers: k }))).toEqual([]);
    });

    it('allowed_endpoints: "/projects/*" allows the collection and everything below, nothing else', async () => {
      const k = bearer((await makeKey(t.app, owner, { allowed_endpoints: ['/projects/*'] })).key);
      const p = dataOf(
        await call(t.app, { method: 'POST', url: '/projects', headers: k, payload: { name: 'via scoped key' } }),
        201,
      );
      expect(await status(k, '127.0.0.1', '/projects')).toBe(200);
      expect(await status(k, '127.0.0.1', `/projects/${p.id}`)).toBe(200);
      expect(await status(k, '127.0.0.1', `/projects/${p.id}/stats`)).toBe(200);
      await expect403(k, '127.0.0.1', '/api-keys');
      await expect403(k, '127.0.0.1', '/auth/me');
    });

    it('allowed_endpoints: a key limited to "POST /workflows/*/run" can reach nothing here', async () => {
      const k = bearer((await makeKey(t.app, owner, { allowed_endpoints: ['POST /workflows/*/run'] })).key);
      await expect403(k, '127.0.0.1', '/projects');
      await expect403(k, '127.0.0.1', '/projects', 'POST', { name: 'x' });
      await expect403(k, '127.0.0.1', '/auth/me');
    });

    it('allowed_ips and allowed_endpoints together: both must pass', async () => {
      const k = bearer(
        (await makeKey(t.app, owner, { allowed_ips: ['198.51.100.0/24'], allowed_endpoints: ['GET /projects'] })).key,
      );
      expect(await status(k, '198.51.100.9')).toBe(200);
      await expect403(k, '198.51.101.9');
      await expect403(k, '198.51.100.9', '/api-keys');
    });

    it('roles: viewer reads only, member cannot manage keys or delete projects, admin and owner can', async () => {
      const viewer = await quickActor(t, { role: 'viewer', orgId: owner.orgId });
      const member = await quickActor(t, { role: 'member', orgId: owner.orgId });
      const admin = await quickActor(t, { role: 'admin', orgId: owner.orgId });
      const project = dataOf(
        await call(t.app, { method: 'POST', url: '/projects', headers: member.auth, payload: { name: 'by member' } }),
        201,
      );
      const keyId = (await makeKey(t.app, admin)).id;

      expect((await call(t.app, { url: '/projects', headers: viewer.auth })).statusCode).toBe(200);
      expect((await call(t.app, { url: `/projects/${project.id}`, headers: viewer.auth })).statusCode).toBe(200);
      const v = expectError(
        await call(t.app, { method: 'POST', url: '/projects', headers: viewer.auth, payload: { name: 'x' } }),
        403,
        'FORBIDDEN',
      );
      expect(v.message).toMatch(/member/);
      expectError(
        await call(t.app, {
          method: 'PUT',
          url: `/projects/${project.id}`,
          headers: viewer.auth,
          payload: { name: 'x' },
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await call(t.app, { method: 'POST', url: `/projects/${project.id}/archive`, headers: viewer.auth }),
        403,
        'FORBIDDEN',
      );
      expectError(await call(t.app, { url: '/api-keys', headers: viewer.auth }), 403, 'FORBIDDEN');

      for (const [method, url] of [
        ['GET', '/api-keys'],
        ['POST', '/api-keys'],
        ['GET', `/api-keys/${keyId}`],
        ['PUT', `/api-keys/${keyId}`],
        ['DELETE', `/api-keys/${keyId}`],
        ['DELETE', `/projects/${project.id}`],
      ] as const) {
        const m = expectError(
          await call(t.app, {
            method,
            url,
            headers: member.auth,
            payload: method === 'POST' || method === 'PUT' ? { name: 'x' } : undefined,
          }),
          403,
          'FORBIDDEN',
        );
        expect(m.message).toMatch(/admin/);
      }
      expect(
        (
          await call(t.app, {
            method: 'PUT',
            url: `/projects/${project.id}`,
            headers: member.auth,
            payload: { name: 'renamed' },
          })
        ).statusCode,
      ).toBe(200);

      for (const who of [admin, owner]) {
        expect((await call(t.app, { url: '/api-keys', headers: who.auth })).statusCode).toBe(200);
        expect((await call(t.app, { url: `/api-keys/${keyId}`, headers: who.auth })).statusCode).toBe(200);
      }
      expect(
        (await call(t.app, { method: 'DELETE', url: `/projects/${project.id}`, headers: admin.auth })).statusCode,
      ).toBe(200);
      // The refused key operations changed nothing.
      expect(dataOf(await call(t.app, { url: `/api-keys/${keyId}`, headers: admin.auth })).status).toBe('active');
    });

    it("a key carries its creator's role: a viewer-equivalent key cannot write", async () => {
      const admin = await quickActor(t, { role: 'admin', orgId: owner.orgId });
      const k = bearer((await makeKey(t.app, admin)).key);
      expect((await call(t.app, { url: '/api-keys', headers: k })).statusCode).toBe(200);
      await t.deps.services.orgs.updateUser(admin.userId, { role: 'viewer' });
      expect((await call(t.app, { url: '/projects', headers: k })).statusCode).toBe(200);
      expectError(
        await call(t.app, { method: 'POST', url: '/projects', headers: k, payload: { name: 'x' } }),
        403,
        'FORBIDDEN',
      );
    });
  });
});
