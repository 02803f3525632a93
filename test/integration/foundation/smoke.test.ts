import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, createKey, bearer, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { foundationApp } from './support.js';

describe.each(dbKinds())('foundation smoke (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await foundationApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('health answers without auth and carries a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(body(res).data.status).toBe('ok');
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it('login, key, project round trip', async () => {
    const actor = await createActor(t);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: actor.auth });
    expect(me.statusCode).toBe(200);
    expect(body(me).data.user.id).toBe(actor.userId);
    const key = await createKey(t, actor);
    expect(key.key).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/projects',
      headers: bearer(key.key),
      payload: { name: 'Invoices' },
    });
    expect(created.statusCode).toBe(201);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/projects', headers: bearer(key.key) });
    expect(body(list).data.map((p: { name: string }) => p.name)).toEqual(['Invoices']);
    expect(list.headers['ratelimit-policy']).toContain('"org-minute"');
  });

  it('unknown route and wrong method come in the envelope', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(a.statusCode).toBe(404);
    expect(body(a).error?.code).toBe('NOT_FOUND');
    const b = await t.app.inject({ method: 'PATCH', url: '/api/v1/projects' });
    expect(b.statusCode).toBe(405);
    expect(b.headers.allow).toContain('GET');
  });
});
