// API-key endpoints: fields, the one-time secret, hashing at rest, paging and validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { sha256Hex } from '../../../src/lib/crypto.js';
import { bearer, call, dataOf, expectError, makeKey, quickActor, foundationApp, type QuickActor } from './support.js';

const FULL = {
  name: 'Nightly export',
  rate_limit_per_minute: 42,
  rate_limit_per_day: 4242,
  expires_in_days: 30,
  allowed_ips: ['10.0.0.0/8', '2001:db8::/32', '203.0.113.7'],
  allowed_endpoints: ['GET /projects', '/projects/*', 'POST /workflows/*/run'],
  metadata: { team: 'finance', owner: { id: 7, tags: ['a', 'b'] }, enabled: true, ratio: 0.5, none: null },
};

describe.each(dbKinds())('API-key endpoints (%s)', (kind) => {
  let t: TestApp;
  let owner: QuickActor;
  beforeAll(async () => {
    t = await foundationApp(kind);
    owner = await quickActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every field of the create body round-trips; the secret is shown once, as `key`', async () => {
    const before = Date.now();
    const res = await call(t.app, { method: 'POST', url: '/api-keys', headers: owner.auth, payload: FULL });
    const created = dataOf(res, 201);
    expect(res.json().message).toMatch(/not be shown again/);
    expect(created.key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(created.id).toMatch(/^key_[0-9A-Z]{26}$/);
    const { key: secret, ...rest } = created;
    const expected = {
      ...FULL,
      expires_in_days: undefined,
      environment: 'live',
      status: 'active',
      is_active: true,
      created_by: owner.userId,
      masked_key: `svc_live_${secret.slice(9, 13)}…${secret.slice(-4)}`,
      last_used_at: null,
      revoked_at: null,
    };
    delete expected.expires_in_days;
    expect(rest).toMatchObject(expected);
    const expiresAt = Date.parse(created.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000 + 1000);
    expect(Date.parse(created.created_at)).toBeGreaterThan(0);

    const got = dataOf(await call(t.app, { url: `/api-keys/${created.id}`, headers: owner.auth }));
    expect(got).toEqual(rest);
    expect(got).not.toHaveProperty('key');
    const listed = dataOf(await call(t.app, { url: '/api-keys', headers: owner.auth })).find(
      (k: { id: string }) => k.id === created.id,
    );
    expect(listed).toEqual(rest);
    // And the key works.
    expect(
      (await call(t.app, { url: '/projects', headers: bearer(secret), remoteAddress: '10.1.2.3' })).statusCode,
    ).toBe(200);
  });

  it('defaults: no limits, no expiry, no restrictions, empty metadata', async () => {
    const k = await makeKey(t.app, owner, { name: 'plain' });
    expect(k).toMatchObject({
      rate_limit_per_minute: null,
      rate_limit_per_day: null,
      expires_at: null,
      allowed_ips: [],
      allowed_endpoints: [],
      metadata: {},
      status: 'active',
    });
  });

  it('the secret never appears again: not in list, get, update or revoke responses', async () => {
    const k = await makeKey(t.app, owner, { name: 'secretive' });
    const body = k.key.slice('svc_live_'.length);
    const responses: LightMyRequestResponse[] = [
      await call(t.app, { url: '/api-keys', headers: owner.auth }),
      await call(t.app, { url: '/api-keys?limit=100', headers: bearer(k.key) }),
      await call(t.app, { url: `/api-keys/${k.id}`, headers: owner.auth }),
      await call(t.app, { method: 'PUT', url: `/api-keys/${k.id}`, headers: owner.auth, payload: { name: 'renamed' } }),
      await call(t.app, { url: '/auth/me', headers: bearer(k.key) }),
      await call(t.app, { method: 'DELETE', url: `/api-keys/${k.id}`, headers: owner.auth }),
    ];
    for (const res of responses) {
      expect(res.statusCode).toBe(200);
      const everything = res.body + JSON.stringify(res.headers);
      expect(everything).not.toContain(k.key);
      expect(everything).not.toContain(body);
      expect(everything).not.toContain(sha256Hex(k.key));
      expect(res.body).not.toContain('"key":');
      expect(res.body).not.toContain('key_hash');
    }
  });

  it('stored as a sha256 hash only: no column holds the secret', async () => {
    const k = await makeKey(t.app, owner, { name: 'hashed' });
    const { rows } = await t.testDb.db.query<{ key_hash: string; row: string }>(
      'SELECT key_hash, row_to_json(a)::text AS row FROM api_keys a WHERE id = $1',
      [k.id],
    );
    expect(rows[0].key_hash).toBe(sha256Hex(k.key));
    expect(rows[0].row).not.toContain(k.key);
    expect(rows[0].row).not.toContain(k.key.slice('svc_live_'.length));
    // The display form keeps 8 of the 32 secret characters, nothing more.
    expect(rows[0].row).toContain(k.masked_key as string);
  });

  it("`environment: 'test'` yields a svc_test_ key", async () => {
    const k = await makeKey(t.app, owner, { name: 'sandbox', environment: 'test' });
    expect(k.key).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    expect(k).toMatchObject({ environment: 'test', masked_key: expect.stringMatching(/^svc_test_.{4}….{4}$/) });
    expect(dataOf(await call(t.app, { url: '/auth/me', headers: bearer(k.key) })).environment).toBe('test');
    expectError(
      await call(t.app, {
        method: 'POST',
        url: '/api-keys',
        headers: owner.auth,
        payload: { name: 'x', environment: 'prod' },
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('list paging: limit default 50, max 100 (101 → 400), offset, newest first, totals', async () => {
    const actor = await quickActor(t);
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) ids.push((await makeKey(t.app, actor, { name: `k${i}` })).id);
    const newestFirst = [...ids].reverse();

    const first = await call(t.app, { url: '/api-keys', headers: actor.auth });
    expect(dataOf(first).map((k: { id: string }) => k.id)).toEqual(newestFirst.slice(0, 50));
    expect(first.json().pagination).toMatchObject({ total: 53, limit: 50, offset: 0, has_more: true });
    const rest = await call(t.app, { url: '/api-keys?offset=50', headers: actor.auth });
    expect(dataOf(rest).map((k: { id: string }) => k.id)).toEqual(newestFirst.slice(50));
    expect(rest.json().pagination).toMatchObject({ total: 53, limit: 50, offset: 50, has_more: false });
    const page = await call(t.app, { url: '/api-keys?limit=5&offset=10', headers: actor.auth });
    expect(dataOf(page).map((k: { id: string }) => k.id)).toEqual(newestFirst.slice(10, 15));
    expect((await call(t.app, { url: '/api-keys?limit=100', headers: actor.auth })).json().data).toHaveLength(53);
    expect(dataOf(await call(t.app, { url: '/api-keys?offset=500', headers: actor.auth }))).toEqual([]);

    for (const [query, field] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['offset=-1', 'offset'],
      ['bogus=1', 'bogus'],
    ]) {
      const err = expectError(
        await call(t.app, { url: `/api-keys?${query}`, headers: actor.auth }),
        400,
        'VALIDATION_ERROR',
      );
      expect(
        err.details?.map((d) => d.field),
        query,
      ).toEqual([field]);
    }
  });

  it('update: every updatable field applies; null clears a limit', async () => {
    const k = await makeKey(t.app, owner, { name: 'before', rate_limit_per_minute: 5, rate_limit_per_day: 50 });
    const updated = dataOf(
      await call(t.app, {
        method: 'PUT',
        url: `/api-keys/${k.id}`,
        headers: owner.auth,
        payload: {
          name: 'after',
          is_active: false,
          rate_limit_per_minute: 7,
          rate_limit_per_day: null,
          allowed_ips: ['192.0.2.0/24'],
        },
      }),
    );
    expect(updated).toMatchObject({
      name: 'after',
      is_active: false,
      status: 'inactive',
      rate_limit_per_minute: 7,
      rate_limit_per_day: null,
      allowed_ips: ['192.0.2.0/24'],
    });
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(updated.created_at));
    expect(dataOf(await call(t.app, { url: `/api-keys/${k.id}`, headers: owner.auth }))).toEqual(updated);
    // An empty body changes nothing.
    const same = dataOf(
      await call(t.app, { method: 'PUT', url: `/api-keys/${k.id}`, headers: owner.auth, payload: {} }),
    );
    expect({ ...same, updated_at: null }).toEqual({ ...updated, updated_at: null });
  });

  it('update refuses fields it does not accept, naming them', async () => {
    const k = await makeKey(t.app, owner);
    for (const [field, value] of [
      ['allowed_endpoints', ['GET /x']],
      ['metadata', {}],
      ['expires_in_days', 3],
      ['environment', 'test'],
      ['key', 'svc_live_x'],
      ['status', 'active'],
      ['bogus', 1],
    ] as const) {
      const err = expectError(
        await call(t.app, {
          method: 'PUT',
          url: `/api-keys/${k.id}`,
          headers: owner.auth,
          payload: { name: 'ok', [field]: value },
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(
        err.details?.map((d) => d.field),
        field,
      ).toEqual([field]);
      expect(err.message).toContain(field);
    }
    expect(dataOf(await call(t.app, { url: `/api-keys/${k.id}`, headers: owner.auth })).name).toBe('key');
  });

  it('create validation: name required, types checked, unknown fields refused', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['name']],
      [{ name: '' }, ['name']],
      [{ name: 'x', rate_limit_per_minute: 0 }, ['rate_limit_per_minute']],
      [{ name: 'x', rate_limit_per_day: 1.5 }, ['rate_limit_per_day']],
      [{ name: 'x', expires_in_days: '30' }, ['expires_in_days']],
      [{ name: 'x', allowed_ips: '10.0.0.1' }, ['allowed_ips']],
      [{ name: 'x', metadata: [1] }, ['metadata']],
      [{ name: 'x', is_active: true }, ['is_active']],
    ];
    for (const [payload, fields] of cases) {
      const err = expectError(
        await call(t.app, { method: 'POST', url: '/api-keys', headers: owner.auth, payload }),
        400,
        'VALIDATION_ERROR',
      );
      expect(
        err.details?.map((d) => d.field),
        JSON.stringify(payload),
      ).toEqual(fields);
    }
  });

  it('invalid IPs and endpoints → 400 with one detail per bad entry', async () => {
    const err = expectError(
      await call(t.app, {
        method: 'POST',
        url: '/api-keys',
        headers: owner.auth,
        payload: {
          name: 'x',
          allowed_ips: ['10.0.0.1', 'localhost', '10.0.0.0/33'],
          allowed_endpoints: ['GET /ok', 'FETCH /x', 'no-slash'],
        },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(err.details?.map((d) => d.field)).toEqual([
      'allowed_ips[1]',
      'allowed_ips[2]',
      'allowed_endpoints[1]',
      'allowed_endpoints[2]',
    ]);
    expect(err.details?.[0].message).toContain('localhost');
    expect(err.message).toContain('allowed_ips[1]');
    const k = await makeKey(t.app, owner);
    const upd = expectError(
      await call(t.app, {
        method: 'PUT',
        url: `/api-keys/${k.id}`,
        headers: owner.auth,
        payload: { allowed_ips: ['::1', '2001:db8::/200'] },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(upd.details?.map((d) => d.field)).toEqual(['allowed_ips[1]']);
    expect(dataOf(await call(t.app, { url: `/api-keys/${k.id}`, headers: owner.auth })).allowed_ips).toEqual([]);
  });

  it('unknown ids → 404 for get, update and revoke', async () => {
    const id = 'key_01AAAAAAAAAAAAAAAAAAAAAAAA';
    expectError(await call(t.app, { url: `/api-keys/${id}`, headers: owner.auth }), 404, 'NOT_FOUND');
    expectError(
      await call(t.app, { method: 'PUT', url: `/api-keys/${id}`, headers: owner.auth, payload: { name: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await call(t.app, { method: 'DELETE', url: `/api-keys/${id}`, headers: owner.auth }), 404, 'NOT_FOUND');
  });

  it('revoke returns the key, marked revoked', async () => {
    const k = await makeKey(t.app, owner);
    const res = await call(t.app, { method: 'DELETE', url: `/api-keys/${k.id}`, headers: owner.auth });
    expect(dataOf(res)).toMatchObject({
      id: k.id,
      status: 'revoked',
      is_active: false,
      revoked_at: expect.any(String),
    });
    expect(res.json().message).toMatch(/revoked/);
  });

  it('last_used_at is recorded without a write per request', async () => {
    const k = await makeKey(t.app, owner);
    await call(t.app, { url: '/projects', headers: bearer(k.key) });
    await call(t.app, { url: '/projects', headers: bearer(k.key) });
    expect(dataOf(await call(t.app, { url: `/api-keys/${k.id}`, headers: owner.auth })).last_used_at).toBeNull();
    await t.deps.lastUsed.flush();
    const used = dataOf(await call(t.app, { url: `/api-keys/${k.id}`, headers: owner.auth })).last_used_at;
    expect(Date.parse(used)).toBeGreaterThan(Date.now() - 60_000);
  });
});
