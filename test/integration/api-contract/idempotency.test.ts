// Idempotency-Key on authenticated POSTs: replay of the stored response for 24 hours, 422 for the
// same key with another request, 409 while the first still runs, nothing stored for server
// errors or refused input, per credential and environment, exactly one execution under
// concurrency, expiry, and the refusal on multipart uploads. PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { appDepsFrom, buildApp } from '../../../src/http/app.js';
import { startMaintenance } from '../../../workers/maintenance.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { multipart } from '../../helpers/multipart.js';
import {
  API,
  bearer,
  call,
  dataOf,
  expectError,
  makeKey,
  makeProject,
  quickActor,
  type QuickActor,
} from '../foundation/support.js';

const projectCount = async (t: TestApp, orgId: string, name: string) =>
  (
    await t.testDb.db.query<{ n: number }>('SELECT count(*)::int AS n FROM projects WHERE org_id = $1 AND name = $2', [
      orgId,
      name,
    ])
  ).rows[0].n;

describe.each(dbKinds())('Idempotency-Key (%s)', (kind) => {
  let t: TestApp;
  let owner: QuickActor;
  let n = 0;
  const uniqueKey = () => `key-${kind}-${++n}-${Date.now()}`;
  const post = (
    url: string,
    payload: unknown,
    key?: string,
    auth: Record<string, string> = owner.auth,
    extra: Record<string, string> = {},
  ) =>
    call(t.app, {
      method: 'POST',
      url,
      payload,
      headers: { ...auth, ...extra, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    });

  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = await quickActor(t, { role: 'owner' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a repeat with the same key and body replays the stored response, marked, and runs nothing again', async () => {
    const key = uniqueKey();
    const first = await post('/projects', { name: 'Once', description: 'x' }, key);
    const created = dataOf(first, 201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same body with its keys in another order is the same request.
    const again = await post('/projects', { description: 'x', name: 'Once' }, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.json()).toEqual(first.json());
    expect(again.json().data.id).toBe(created.id);
    // A new request id each time: the replay is a new answer with the old content.
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await projectCount(t, owner.orgId, 'Once')).toBe(1);
  });

  it('the same key with another body or another path is a 422 with the envelope; the first answer stays', async () => {
    const key = uniqueKey();
    dataOf(await post('/projects', { name: 'First' }, key), 201);
    const other = expectError(await post('/projects', { name: 'Second' }, key), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(other.message).toMatch(/different request/);
    expectError(await post('/api-keys', { name: 'First' }, key), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await projectCount(t, owner.orgId, 'Second')).toBe(0);
    const replay = await post('/projects', { name: 'First' }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('keys belong to one credential and environment: two API keys, a session and test mode never share one', async () => {
    const key = uniqueKey();
    const a = await makeKey(t.app, owner, { name: 'a' });
    const b = await makeKey(t.app, owner, { name: 'b' });
    const name = `Shared ${key}`;
    for (const auth of [bearer(a.key), bearer(b.key), owner.auth])
      expect((await post('/projects', { name }, key, auth)).headers['idempotent-replayed']).toBeUndefined();
    const testMode = await post('/projects', { name }, key, owner.auth, { 'x-environment': 'test' });
    expect(testMode.statusCode).toBe(201);
    expect(testMode.headers['idempotent-replayed']).toBeUndefined();
    expect(await projectCount(t, owner.orgId, name)).toBe(4);
    // Each credential replays its own.
    const replay = await post('/projects', { name }, key, bearer(a.key));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // Another organization's user with the same key runs its own request.
    const stranger = await quickActor(t);
    expect((await post('/projects', { name }, key, stranger.auth)).statusCode).toBe(201);
    expect(await projectCount(t, stranger.orgId, name)).toBe(1);
  });

  it('concurrent requests with one key: exactly one runs, the others get 409 or the replay', async () => {
    const key = uniqueKey();
    const name = `Race ${key}`;
    const results = await Promise.all(Array.from({ length: 12 }, () => post('/projects', { name }, key)));
    const ran = results.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(ran).toHaveLength(1);
    for (const r of results) {
      if (r.statusCode === 409) expect(r.json().error.message).toMatch(/still being processed/);
      else expect(r.statusCode).toBe(201);
      if (r.statusCode === 201) expect(r.json().data.id).toBe(ran[0].json().data.id);
    }
    expect(await projectCount(t, owner.orgId, name)).toBe(1);
  });

  it('a request still running with the key answers 409; one whose process died is taken over after its lock', async () => {
    const key = uniqueKey();
    const body = { name: `Running ${key}` };
    // A claim held by "another process" for the same request.
    const held = await t.deps.services.idempotency.begin({
      scope: { orgId: owner.orgId, environment: 'live' },
      credential: `user:${owner.userId}`,
      key,
      method: 'POST',
      path: `${API}/projects`,
      query: {},
      body,
    });
    expect(held.kind).toBe('claimed');
    const busy = expectError(await post('/projects', body, key), 409, 'CONFLICT');
    expect(busy.message).toMatch(/Idempotency-Key is still being processed/);
    expect(await projectCount(t, owner.orgId, body.name)).toBe(0);
    // Its lock runs out (the holder died): the next request runs, and the late holder cannot overwrite it.
    await t.testDb.db.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = $1`, [
      key,
    ]);
    const res = await post('/projects', body, key);
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    if (held.kind === 'claimed') await held.finish({ status: 200, headers: {}, body: '{"late":true}' });
    const replay = await post('/projects', body, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data.id).toBe(res.json().data.id);
  });

  it('client errors of the handler are stored and replayed; refused input is not (the key stays free)', async () => {
    const key = uniqueKey();
    const missing = await post('/workflows/wf_doesnotexist/run', { mode: 'dry_run' }, key);
    expectError(missing, 404, 'NOT_FOUND');
    const again = await post('/workflows/wf_doesnotexist/run', { mode: 'dry_run' }, key);
    expect(again.statusCode).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');

    const key2 = uniqueKey();
    expectError(await post('/projects', { colour: 'red' }, key2), 400, 'VALIDATION_ERROR');
    const fixed = await post('/projects', { name: `Fixed ${key2}` }, key2);
    expect(fixed.statusCode).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a server error is not stored: the same key can be retried and then runs', async () => {
    const deps = appDepsFrom(t.deps);
    let fail = true;
    const projects = Object.create(deps.projects) as typeof deps.projects;
    projects.create = async (...args: Parameters<typeof deps.projects.create>) => {
      if (fail) {
        fail = false;
        throw new Error('database went away');
      }
      return deps.projects.create(...args);
    };
    const app: FastifyInstance = await buildApp({ ...deps, projects });
    await app.ready();
    try {
      const key = uniqueKey();
      const send = () =>
        app.inject({
          method: 'POST',
          url: `${API}/projects`,
          headers: { ...owner.auth, 'idempotency-key': key },
          payload: { name: `Flaky ${key}` },
        });
      expectError(await send(), 500, 'INTERNAL_ERROR');
      const retry = await send();
      expect(retry.statusCode).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect((await send()).headers['idempotent-replayed']).toBe('true');
      expect(await projectCount(t, owner.orgId, `Flaky ${key}`)).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('keys are bounded: 1–255 printable ASCII characters', async () => {
    for (const bad of ['k'.repeat(256), 'tab\there', ' leading']) {
      const err = expectError(await post('/projects', { name: 'Bounded' }, bad), 400, 'VALIDATION_ERROR');
      expect(err.message).toMatch(/Idempotency-Key/i);
    }
    expect((await post('/projects', { name: 'Bounded 255' }, 'k'.repeat(255))).statusCode).toBe(201);
    expect((await post('/projects', { name: 'Bounded punct' }, 'order:42/retry #1 {x}')).statusCode).toBe(201);
    expect(await projectCount(t, owner.orgId, 'Bounded')).toBe(0);
  });

  it('multipart uploads refuse the header with a message that says why, and store no file', async () => {
    const project = await makeProject(t.app, owner.auth, { name: 'Uploads' });
    const filesDir = join(t.config.dataDir, 'files');
    const count = () => {
      try {
        return readdirSync(filesDir, { recursive: true }).length;
      } catch {
        return 0;
      }
    };
    const before = count();
    const form = multipart(
      { project_id: project.id },
      { name: 'a.txt', data: Buffer.from('Invoice 1\nTotal 10\n'), type: 'text/plain' },
    );
    const res: LightMyRequestResponse = await t.app.inject({
      method: 'POST',
      url: `${API}/documents`,
      payload: form.payload,
      headers: { ...owner.auth, ...form.headers, 'idempotency-key': uniqueKey() },
    });
    const err = expectError(res, 400, 'VALIDATION_ERROR');
    expect(err.message).toMatch(/Idempotency-Key is not accepted on multipart uploads/);
    expect(err.details?.[0]).toMatchObject({ field: 'Idempotency-Key', in: 'headers' });
    expect(count()).toBe(before);
    // Without the header the upload works.
    const ok = await t.app.inject({
      method: 'POST',
      url: `${API}/documents`,
      payload: form.payload,
      headers: { ...owner.auth, ...form.headers },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('responses are kept 24 hours: the sweep deletes older rows, and an expired key is a new key', async () => {
    const key = uniqueKey();
    dataOf(await post('/projects', { name: `Old ${key}` }, key), 201);
    await t.testDb.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [
      key,
    ]);
    // Past 24 h the key may carry another request.
    const reused = await post('/projects', { name: `New ${key}` }, key);
    expect(reused.statusCode).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    const other = uniqueKey();
    dataOf(await post('/projects', { name: `Other ${other}` }, other), 201);
    await t.testDb.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [
      other,
    ]);
    const left = async (k: string) =>
      (await t.testDb.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [k])).rows.length;
    expect(await t.deps.services.idempotency.sweep()).toBeGreaterThanOrEqual(1);
    expect(await left(other)).toBe(0);
    expect(await left(key)).toBe(1);
  });

  it('the daily maintenance (retention) job deletes responses past 24 hours', async () => {
    const key = uniqueKey();
    dataOf(await post('/projects', { name: `Swept ${key}` }, key), 201);
    const fresh = uniqueKey();
    dataOf(await post('/projects', { name: `Fresh ${fresh}` }, fresh), 201);
    await t.testDb.db.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 minute' WHERE key = $1`,
      [key],
    );
    const worker = await startMaintenance(t.deps, { schedulers: false });
    try {
      await t.deps.queues.get('maintenance').add('retention', { kind: 'retention' });
      const left = async (k: string) =>
        (await t.testDb.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [k])).rows.length;
      for (let i = 0; i < 150 && (await left(key)) > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await left(key)).toBe(0);
      expect(await left(fresh)).toBe(1);
    } finally {
      await worker.close();
    }
  });

  it('requests without the header and other methods are untouched', async () => {
    const name = `Plain ${uniqueKey()}`;
    dataOf(await post('/projects', { name }), 201);
    dataOf(await post('/projects', { name }), 201);
    expect(await projectCount(t, owner.orgId, name)).toBe(2);
    const res = await call(t.app, {
      url: '/projects',
      headers: { ...owner.auth, 'idempotency-key': 'ignored on GET' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('the OpenAPI document declares the header on every authenticated POST', async () => {
    const doc = (await t.app.inject({ url: `${API}/openapi.json` })).json() as {
      paths: Record<string, Record<string, { security?: unknown[]; parameters?: { name: string; in: string }[] }>>;
    };
    let posts = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      const op = item.post;
      if (!op || (Array.isArray(op.security) && op.security.length === 0)) continue;
      posts++;
      expect(
        op.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
        `POST ${path}`,
      ).toBe(true);
    }
    expect(posts).toBeGreaterThan(20);
    expect(
      doc.paths[`${API}/auth/login`].post.parameters?.some((p) => p.name.toLowerCase() === 'idempotency-key') ?? false,
    ).toBe(false);
  });
});
