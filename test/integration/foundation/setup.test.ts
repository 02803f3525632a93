// First-run setup: while no user exists the API offers to create the owner account; once one
// exists it refuses (409). On a network address setup also needs the token from the log.
import { afterEach, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { setupToken } from '../../../src/modules/setup/setup.service.js';

const owner = { email: 'owner@example.test', password: 'correct horse battery', organization_name: 'Acme' };

describe.each(dbKinds())('first-run setup (%s)', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const get = () => t!.app.inject({ method: 'GET', url: '/api/v1/setup' });
  const post = (payload: object) => t!.app.inject({ method: 'POST', url: '/api/v1/setup', payload });

  it('creates the owner once, on the self_hosted plan (no organization-wide per-minute cap)', async () => {
    t = await createTestApp(kind);
    expect(body(await get()).data).toEqual({ needed: true, token_required: false });
    const bad = await post({ email: 'x@example.test', password: 'short', organization_name: 'A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/password/);
    expect(body(await get()).data.needed).toBe(true);

    const res = await post(owner);
    expect(res.statusCode, res.body).toBe(201);
    expect(body(res).data.user).toMatchObject({ email: owner.email, role: 'owner' });
    expect(body(await get()).data).toEqual({ needed: false, token_required: false });
    expect((await post({ ...owner, email: 'second@example.test' })).statusCode).toBe(409);

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: owner.email, password: owner.password },
    });
    expect(login.statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${body(login).data.accessToken}` },
    });
    expect(body(me).data.organization).toMatchObject({
      name: 'Acme',
      plan: 'self_hosted',
      rate_limit_per_minute: null,
    });
    expect(String(me.headers['ratelimit-policy'] ?? '')).not.toMatch(/org-minute/);
  });

  it('lets exactly one of several concurrent setups through', async () => {
    t = await createTestApp(kind);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => post({ ...owner, email: `owner${i}@example.test` })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('on a network address needs the token the server printed; DEFAULT_PLAN chooses the plan', async () => {
    t = await createTestApp(kind, { HOST: '0.0.0.0', DEFAULT_PLAN: 'free' });
    expect(body(await get()).data).toEqual({ needed: true, token_required: true });
    const none = await post(owner);
    expect(none.statusCode).toBe(403);
    expect(none.body).toMatch(/token/);
    expect((await post({ ...owner, token: 'guessed-token-guessed-tok' })).statusCode).toBe(403);
    expect(body(await get()).data.needed).toBe(true);
    const ok = await post({ ...owner, token: setupToken(t.config.JWT_SECRET) });
    expect(ok.statusCode, ok.body).toBe(201);
    const { rows } = await t.deps.db.query<{ plan: string }>('SELECT plan FROM organizations');
    expect(rows.map((r) => r.plan)).toEqual(['free']);
  });
});
