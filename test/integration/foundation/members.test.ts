// Members of an organization: list, add (with a one-time temporary password), change role,
// remove; role rules, the last owner, tenant isolation and live-only writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createMembersRepository } from '../../../src/modules/orgs/members.repository.js';
import { createMembersService } from '../../../src/modules/orgs/members.service.js';
import { bearer, call, dataOf, expectError, foundationApp, makeKey, quickActor, type QuickActor } from './support.js';

let ip = 0;
const freshIp = () => `198.20.${(++ip >> 8) & 255}.${ip & 255}`;

describe.each(dbKinds())('members (%s)', (kind) => {
  let t: TestApp;
  let owner: QuickActor;
  let admin: QuickActor;
  let member: QuickActor;
  let stranger: QuickActor;
  beforeAll(async () => {
    t = await foundationApp(kind);
    owner = await quickActor(t, { role: 'owner' });
    admin = await quickActor(t, { role: 'admin', orgId: owner.orgId });
    member = await quickActor(t, { role: 'member', orgId: owner.orgId });
    stranger = await quickActor(t, { role: 'owner' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const add = (who: QuickActor, body: Record<string, unknown>) =>
    call(t.app, { method: 'POST', url: '/members', headers: who.auth, payload: body });
  const put = (who: QuickActor, id: string, body: Record<string, unknown>) =>
    call(t.app, { method: 'PUT', url: `/members/${id}`, headers: who.auth, payload: body });

  it("lists the organization's people, owners first, to every role; never another organization's", async () => {
    const list = dataOf(await call(t.app, { url: '/members', headers: member.auth })) as {
      id: string;
      role: string;
      email: string;
    }[];
    expect(list.map((m) => m.role)).toEqual(['owner', 'admin', 'member']);
    expect(list.map((m) => m.id)).not.toContain(stranger.userId);
    expect(JSON.stringify(list)).not.toMatch(/password/);
    expectError(await call(t.app, { url: `/members/${stranger.userId}`, headers: owner.auth }), 404, 'NOT_FOUND');
    expect(dataOf(await call(t.app, { url: `/members/${admin.userId}`, headers: member.auth })).role).toBe('admin');
  });

  it('an admin adds a person; without a password a temporary one is returned once and works for signing in', async () => {
    const email = `new${Date.now()}@example.test`;
    const res = await add(admin, { email, role: 'member', name: 'New Person' });
    const created = dataOf(res, 201);
    expect(created).toMatchObject({ email, role: 'member', name: 'New Person', is_active: true });
    expect(created.temporary_password).toMatch(/^[A-Za-z0-9]{20}$/);
    const login = await call(t.app, {
      method: 'POST',
      url: '/auth/login',
      payload: { email, password: created.temporary_password },
      remoteAddress: freshIp(),
    });
    expect(dataOf(login).accessToken).toBeTruthy();
    expect(
      JSON.stringify(dataOf(await call(t.app, { url: `/members/${created.id}`, headers: owner.auth }))),
    ).not.toContain(created.temporary_password);
    expectError(await add(admin, { email: email.toUpperCase(), role: 'viewer' }), 409, 'CONFLICT');
    const withPassword = dataOf(
      await add(owner, { email: `pw${email}`, role: 'viewer', password: 'a long password' }),
      201,
    );
    expect(withPassword.temporary_password).toBeUndefined();
    const err = expectError(await add(owner, { email: 'not-an-email', role: 'viewer' }), 400, 'VALIDATION_ERROR');
    expect(err.details?.map((d) => d.field)).toEqual(['email']);
  });

  it('only admins manage members, only owners touch the owner role, nobody changes themselves', async () => {
    expectError(await add(member, { email: 'x1@example.test', role: 'viewer' }), 403, 'FORBIDDEN');
    expectError(await add(admin, { email: 'x2@example.test', role: 'owner' }), 403, 'FORBIDDEN');
    expectError(await put(admin, owner.userId, { role: 'member' }), 403, 'FORBIDDEN');
    expectError(await put(admin, member.userId, { role: 'owner' }), 403, 'FORBIDDEN');
    expectError(await put(admin, admin.userId, { role: 'owner' }), 403, 'FORBIDDEN');
    expectError(await put(owner, owner.userId, { is_active: false }), 403, 'FORBIDDEN');
    expectError(
      await call(t.app, { method: 'DELETE', url: `/members/${owner.userId}`, headers: owner.auth }),
      403,
      'FORBIDDEN',
    );
  });

  it("a role change applies to the person's live session and keys at once", async () => {
    const m = await quickActor(t, { role: 'admin', orgId: owner.orgId });
    const key = await makeKey(t.app, m);
    dataOf(await call(t.app, { url: '/webhooks', headers: bearer(key.key) }));
    expect(dataOf(await put(owner, m.userId, { role: 'member' })).role).toBe('member');
    expect(dataOf(await call(t.app, { url: '/auth/me', headers: m.auth })).user.role).toBe('member');
    expectError(await call(t.app, { url: '/webhooks', headers: bearer(key.key) }), 403, 'FORBIDDEN');
  });

  it("removing a person ends their sessions and API keys; another organization's member is a 404", async () => {
    const m = await quickActor(t, { role: 'admin', orgId: owner.orgId });
    const key = await makeKey(t.app, m);
    expectError(
      await call(t.app, { method: 'DELETE', url: `/members/${stranger.userId}`, headers: admin.auth }),
      404,
      'NOT_FOUND',
    );
    expectError(await put(admin, stranger.userId, { role: 'viewer' }), 404, 'NOT_FOUND');
    expect(dataOf(await call(t.app, { method: 'DELETE', url: `/members/${m.userId}`, headers: admin.auth }))).toEqual({
      id: m.userId,
      removed: true,
    });
    expectError(await call(t.app, { url: '/auth/me', headers: m.auth }), 401, 'UNAUTHORIZED');
    expectError(await call(t.app, { url: '/auth/me', headers: bearer(key.key) }), 401, 'UNAUTHORIZED');
    expectError(await call(t.app, { url: `/members/${m.userId}`, headers: admin.auth }), 404, 'NOT_FOUND');
    // The stranger's organization is untouched.
    expect(dataOf(await call(t.app, { url: '/auth/me', headers: stranger.auth })).user.role).toBe('owner');
  });

  it('members are managed in live mode only; test mode may read them', async () => {
    const test = { ...owner.auth, 'x-environment': 'test' };
    expect((dataOf(await call(t.app, { url: '/members', headers: test })) as unknown[]).length).toBeGreaterThan(0);
    expectError(
      await call(t.app, {
        method: 'POST',
        url: '/members',
        headers: test,
        payload: { email: 'tm@example.test', role: 'viewer' },
      }),
      403,
      'FORBIDDEN',
    );
    const testKey = await makeKey(t.app, owner, {}, { 'x-environment': 'test' });
    expectError(
      await call(t.app, { method: 'DELETE', url: `/members/${member.userId}`, headers: bearer(testKey.key) }),
      403,
      'FORBIDDEN',
    );
  });

  it('an organization keeps one active owner, also against concurrent demotions', async () => {
    const o1 = await quickActor(t, { role: 'owner' });
    const o2 = await quickActor(t, { role: 'owner', orgId: o1.orgId });
    // Each owner demotes the other at the same time: one wins, the other is refused.
    const [a, b] = await Promise.all([put(o1, o2.userId, { role: 'admin' }), put(o2, o1.userId, { role: 'admin' })]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([401, 403, 409]).toContain(statuses[1]);
    const { rows } = await t.testDb.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM users WHERE org_id = $1 AND role = 'owner' AND is_active`,
      [o1.orgId],
    );
    expect(Number(rows[0].n)).toBe(1);
    // The service refuses to remove the last active owner even for a caller it is told is an owner.
    const svc = createMembersService({
      db: t.testDb.db,
      repo: createMembersRepository(t.testDb.db),
      orgs: t.deps.repos.orgs,
      stamps: t.deps.stamps,
    });
    const remaining = a.statusCode === 200 ? o1 : o2;
    const demoted = a.statusCode === 200 ? o2 : o1;
    await expect(
      svc.remove({ orgId: o1.orgId, userId: demoted.userId, role: 'owner' }, remaining.userId),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(
      svc.update({ orgId: o1.orgId, userId: demoted.userId, role: 'owner' }, remaining.userId, { is_active: false }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
