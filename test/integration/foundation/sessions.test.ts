// Login, refresh-token rotation with reuse detection, logout, refresh expiry, and the login and
// refresh brakes.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { sha256Hex } from '../../../src/lib/crypto.js';
import { bearer, call, dataOf, expectError, foundationApp, makeKey, windowHeadroom } from './support.js';

const PASSWORD = 'correct horse battery';
let ipCounter = 0;
/** A fresh client address per login, so the per-IP login limit is only hit where a test wants it. */
const freshIp = () => `198.18.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

async function newUser(t: TestApp, role: 'owner' | 'viewer' = 'owner') {
  const email = `s${randomBytes(5).toString('hex')}@example.test`;
  const { user, orgId } = await t.deps.services.orgs.createUser({
    email,
    password: PASSWORD,
    orgName: `Org ${email}`,
    role,
  });
  return { email, userId: user.id, orgId };
}

const login = (t: TestApp, email: string, password = PASSWORD, remoteAddress = freshIp()) =>
  call(t.app, { method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress });
const refresh = (t: TestApp, refreshToken: string) =>
  call(t.app, { method: 'POST', url: '/auth/refresh', payload: { refreshToken }, remoteAddress: freshIp() });
const me = (t: TestApp, accessToken: string) => call(t.app, { url: '/auth/me', headers: bearer(accessToken) });

describe.each(dbKinds())('sessions (%s)', (kind) => {
  let t: TestApp;
  // Sessions are independent of each other, so most tests log in as this one user (password
  // hashing is the slow part here).
  let shared: Awaited<ReturnType<typeof newUser>>;
  beforeAll(async () => {
    t = await foundationApp(kind);
    shared = await newUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('login returns a token pair; the access token lives 15 minutes', async () => {
    const u = await newUser(t);
    const res = await login(t, u.email.toUpperCase());
    const pair = dataOf(res);
    expect(pair).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 });
    const claims = JSON.parse(Buffer.from(pair.accessToken.split('.')[1], 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(900);
    expect(claims.sub).toBe(u.userId);
    const who = dataOf(await me(t, pair.accessToken));
    expect(who).toMatchObject({
      user: { id: u.userId, email: u.email },
      organization: { id: u.orgId },
      environment: 'live',
      auth_method: 'user',
      api_key: null,
    });
    // Only the hash of the refresh token is stored, and it expires in 30 days.
    const { rows } = await t.testDb.db.query<{ token_hash: string; expires_at: Date; row: string }>(
      'SELECT token_hash, expires_at, row_to_json(r)::text AS row FROM refresh_tokens r WHERE user_id = $1',
      [u.userId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(sha256Hex(pair.refreshToken));
    expect(rows[0].row).not.toContain(pair.refreshToken);
    const days = (rows[0].expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('wrong password, unknown e-mail and inactive users get the same 401', async () => {
    const u = await newUser(t);
    const inactive = await newUser(t);
    await t.deps.services.orgs.updateUser(inactive.userId, { isActive: false });
    const messages = [
      expectError(await login(t, u.email, 'wrong password'), 401, 'UNAUTHORIZED').message,
      expectError(await login(t, `nobody-${u.email}`), 401, 'UNAUTHORIZED').message,
      expectError(await login(t, inactive.email), 401, 'UNAUTHORIZED').message,
    ];
    expect(new Set(messages).size).toBe(1);
    expectError(
      await call(t.app, { method: 'POST', url: '/auth/login', payload: { email: u.email } }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('refresh rotates: a new pair, and both new tokens work', async () => {
    const u = shared;
    const p1 = dataOf(await login(t, u.email));
    const p2 = dataOf(await refresh(t, p1.refreshToken));
    expect(p2).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 900 });
    expect(p2.refreshToken).not.toBe(p1.refreshToken);
    expect((await me(t, p2.accessToken)).statusCode).toBe(200);
    const p3 = dataOf(await refresh(t, p2.refreshToken));
    expect((await me(t, p3.accessToken)).statusCode).toBe(200);
    // The session id carries over: it is one family.
    const sid = (tok: string) => JSON.parse(Buffer.from(tok.split('.')[1], 'base64url').toString()).sid;
    expect(sid(p3.accessToken)).toBe(sid(p1.accessToken));
  });

  it('reusing a rotated refresh token revokes the whole family, access tokens included', async () => {
    const u = shared;
    const p1 = dataOf(await login(t, u.email));
    const p2 = dataOf(await refresh(t, p1.refreshToken));
    expect((await me(t, p1.accessToken)).statusCode).toBe(200);
    expect((await me(t, p2.accessToken)).statusCode).toBe(200);
    // p1's refresh token again: reuse.
    const err = expectError(await refresh(t, p1.refreshToken), 401, 'UNAUTHORIZED');
    expect(err.message).toMatch(/already used/);
    expectError(await refresh(t, p2.refreshToken), 401, 'UNAUTHORIZED');
    expectError(await me(t, p2.accessToken), 401, 'UNAUTHORIZED');
    expectError(await me(t, p1.accessToken), 401, 'UNAUTHORIZED');
    // Another session of the same user is not touched.
    const other = dataOf(await login(t, u.email));
    expect((await me(t, other.accessToken)).statusCode).toBe(200);
    expect((await refresh(t, other.refreshToken)).statusCode).toBe(200);
  });

  it('logout kills the access token and the refresh token of that session only', async () => {
    const u = shared;
    const one = dataOf(await login(t, u.email));
    const two = dataOf(await login(t, u.email));
    expect((await me(t, one.accessToken)).statusCode).toBe(200);
    const out = dataOf(await call(t.app, { method: 'POST', url: '/auth/logout', headers: bearer(one.accessToken) }));
    expect(out).toEqual({ logged_out: true });
    expectError(await me(t, one.accessToken), 401, 'UNAUTHORIZED');
    expectError(await refresh(t, one.refreshToken), 401, 'UNAUTHORIZED');
    expectError(
      await call(t.app, { method: 'POST', url: '/auth/logout', headers: bearer(one.accessToken) }),
      401,
      'UNAUTHORIZED',
    );
    expect((await me(t, two.accessToken)).statusCode).toBe(200);
    expect((await refresh(t, two.refreshToken)).statusCode).toBe(200);
  });

  it('an API key cannot log out (it is revoked instead)', async () => {
    const u = shared;
    const pair = dataOf(await login(t, u.email));
    const key = await makeKey(t.app, { auth: bearer(pair.accessToken) });
    expectError(
      await call(t.app, { method: 'POST', url: '/auth/logout', headers: bearer(key.key) }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('refresh tokens expire after 30 days', async () => {
    const u = shared;
    const p = dataOf(await login(t, u.email));
    await t.testDb.db.query(
      "UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1",
      [sha256Hex(p.refreshToken)],
    );
    expectError(await refresh(t, p.refreshToken), 401, 'UNAUTHORIZED');
    const q = dataOf(await login(t, u.email));
    await t.testDb.db.query(
      "UPDATE refresh_tokens SET expires_at = now() + interval '1 minute' WHERE token_hash = $1",
      [sha256Hex(q.refreshToken)],
    );
    expect((await refresh(t, q.refreshToken)).statusCode).toBe(200);
  });

  it('unknown and malformed refresh tokens → 401; a deactivated user cannot refresh', async () => {
    expectError(await refresh(t, `rt_${'x'.repeat(48)}`), 401, 'UNAUTHORIZED');
    expectError(await refresh(t, 'not even close'), 401, 'UNAUTHORIZED');
    expectError(await call(t.app, { method: 'POST', url: '/auth/refresh', payload: {} }), 400, 'VALIDATION_ERROR');
    const u = await newUser(t);
    const p = dataOf(await login(t, u.email));
    await t.deps.services.orgs.updateUser(u.userId, { isActive: false });
    expectError(await refresh(t, p.refreshToken), 401, 'UNAUTHORIZED');
  });
});

// The login limits live in Redis only; the database kind does not matter, and every attempt pays
// for a password hash, so this runs once.
describe('login rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await foundationApp(dbKinds().at(-1) ?? 'pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  const expect429 = (res: Awaited<ReturnType<typeof login>>) => {
    const err = expectError(res, 429, 'RATE_LIMITED');
    const retry = Number(res.headers['retry-after']);
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    return err;
  };

  it('per e-mail: failed attempts slow further ones down (a delay, not a lock-out); the right password still logs in', async () => {
    const u = await newUser(t);
    // Concurrent attempts, in either case: they count against the same address.
    const attempts = await Promise.all(
      Array.from({ length: 7 }, (_, i) => login(t, i % 2 ? u.email.toUpperCase() : u.email, 'wrong password')),
    );
    for (const res of attempts) expectError(res, 401, 'UNAUTHORIZED');
    expect((await login(t, u.email)).statusCode).toBe(200);
    const other = await newUser(t);
    expect((await login(t, other.email)).statusCode).toBe(200);
  });

  it('per client IP: 20 attempts a minute, then 429 with Retry-After', async () => {
    await windowHeadroom(t, 10);
    const ip = '203.0.113.200';
    const u = await newUser(t);
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(t, `nobody${i}-${u.email}`, 'x', ip)),
    );
    for (const res of attempts) expectError(res, 401, 'UNAUTHORIZED');
    const res = await login(t, u.email, PASSWORD, ip);
    expect429(res);
    expect(res.headers['ratelimit-policy']).toContain('"login-ip";q=20;w=60');
    // Another address may still log in.
    expect((await login(t, u.email, PASSWORD, '203.0.113.201')).statusCode).toBe(200);
  });

  it('refresh is limited per client IP (60 a minute)', async () => {
    await windowHeadroom(t, 10);
    const ip = '203.0.113.210';
    for (let i = 0; i < 60; i++) {
      expectError(
        await call(t.app, {
          method: 'POST',
          url: '/auth/refresh',
          payload: { refreshToken: `rt_${i}` },
          remoteAddress: ip,
        }),
        401,
        'UNAUTHORIZED',
      );
    }
    expect429(
      await call(t.app, { method: 'POST', url: '/auth/refresh', payload: { refreshToken: 'rt_x' }, remoteAddress: ip }),
    );
  });
});
