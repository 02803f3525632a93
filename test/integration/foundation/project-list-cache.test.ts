// The project list is served from a per-process cache validated by a Redis version counter read
// with the rate limit. These tests make two API instances (two processes' worth of state: own
// caches, shared Redis and database) and check that a write through either one is visible to
// the other's very next list, for every kind of project write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import {
  call,
  dataOf,
  makeProject,
  quickActor,
  foundationApp,
  secondApp,
  type QuickActor,
  type SecondApp,
} from './support.js';

describe.each(dbKinds())('project list cache (%s)', (kind) => {
  let t: TestApp;
  let b: SecondApp;
  let owner: QuickActor;
  beforeAll(async () => {
    t = await foundationApp(kind);
    b = await secondApp(t);
    owner = await quickActor(t);
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  const names = async (app: TestApp['app'], query = '') =>
    (dataOf(await call(app, { url: `/projects${query}`, headers: owner.auth })) as { name: string }[])
      .map((p) => p.name)
      .sort();

  it('create, update, archive, unarchive and delete in one process show up in the other at once', async () => {
    const first = await makeProject(t.app, owner.auth, { name: 'Alpha' });
    // Fill both caches.
    expect(await names(t.app)).toEqual(['Alpha']);
    expect(await names(b.app)).toEqual(['Alpha']);
    expect(await names(b.app)).toEqual(['Alpha']);

    await makeProject(t.app, owner.auth, { name: 'Beta' });
    expect(await names(b.app)).toEqual(['Alpha', 'Beta']);

    dataOf(
      await call(b.app, {
        method: 'PUT',
        url: `/projects/${first.id}`,
        headers: owner.auth,
        payload: { name: 'Alpha 2' },
      }),
    );
    expect(await names(t.app)).toEqual(['Alpha 2', 'Beta']);

    dataOf(await call(t.app, { method: 'POST', url: `/projects/${first.id}/archive`, headers: owner.auth }));
    expect(await names(b.app)).toEqual(['Beta']);
    expect(await names(b.app, '?include_archived=true')).toEqual(['Alpha 2', 'Beta']);

    dataOf(await call(b.app, { method: 'POST', url: `/projects/${first.id}/unarchive`, headers: owner.auth }));
    expect(await names(t.app)).toEqual(['Alpha 2', 'Beta']);

    dataOf(await call(t.app, { method: 'DELETE', url: `/projects/${first.id}`, headers: owner.auth }));
    expect(await names(b.app)).toEqual(['Beta']);
    expect(await names(t.app)).toEqual(['Beta']);
  });

  it("different queries are cached apart, and one organization never sees another's list", async () => {
    const other = await quickActor(t);
    await makeProject(t.app, other.auth, { name: 'Theirs' });
    await makeProject(t.app, owner.auth, { name: 'Gamma' });
    const mine = await names(t.app);
    expect(mine).toContain('Gamma');
    expect(mine).not.toContain('Theirs');
    expect(await names(t.app, '?search=gamma')).toEqual(['Gamma']);
    expect(await names(t.app, '?limit=1&sort=name&order=asc')).toHaveLength(1);
    const theirs = (dataOf(await call(t.app, { url: '/projects', headers: other.auth })) as { name: string }[]).map(
      (p) => p.name,
    );
    expect(theirs).toEqual(['Theirs']);
  });

  it('a write in the test environment does not invalidate, or leak into, the live list', async () => {
    const before = await names(t.app);
    const res = await call(t.app, {
      method: 'POST',
      url: '/projects',
      headers: { ...owner.auth, 'x-environment': 'test' },
      payload: { name: 'Sandbox' },
    });
    dataOf(res, 201);
    expect(await names(b.app)).toEqual(before);
    const testList = (
      dataOf(await call(b.app, { url: '/projects', headers: { ...owner.auth, 'x-environment': 'test' } })) as {
        name: string;
      }[]
    ).map((p) => p.name);
    expect(testList).toEqual(['Sandbox']);
  });
});
