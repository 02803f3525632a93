// The pipeline page's API: per-stage counts of the caller's documents, the shared queues' counts
// and controls for the operator only, retry of failed documents and per-stage reprocessing.
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { eventually } from '../../helpers/docs-app.js';
import {
  call,
  dataOf,
  expectError,
  insertDocument,
  makeProject,
  quickActor,
  type QuickActor,
} from '../foundation/support.js';

describe.each(dbKinds())('pipeline control (%s)', (kind) => {
  let t: TestApp;
  let owner: QuickActor;
  let projectId: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = await quickActor(t);
    projectId = (await makeProject(t.app, owner.auth)).id;
  });
  afterAll(async () => {
    for (const q of ['parse', 'embed', 'classify', 'extract', 'mail'] as const)
      await t.deps.queues
        .get(q)
        .obliterate({ force: true })
        .catch(() => undefined);
    await t?.close();
  });

  const fail = async (orgId: string, project: string, stage: string, env: 'live' | 'test' = 'live') => {
    const id = await insertDocument(t, { orgId, projectId: project, status: 'failed', environment: env });
    await t.testDb.db.query('UPDATE documents SET error = $2 WHERE id = $1', [
      id,
      JSON.stringify({ stage, code: 'CORRUPT', message: 'broken' }),
    ]);
    return id;
  };

  it('the only organization of an install operates the shared queues: counts, pause and resume', async () => {
    await fail(owner.orgId, projectId, 'classify');
    const p = dataOf(await call(t.app, { url: '/pipeline', headers: owner.auth }));
    expect(p.can_control_queues).toBe(true);
    expect(p.queues.map((q: { name: string }) => q.name)).toEqual([
      'parse',
      'embed',
      'classify',
      'extract',
      'export',
      'webhooks',
      'workflows',
      'reports',
      'mail',
      'maintenance',
    ]);
    expect(p.stages.classify).toEqual({ in_progress: 0, failed: 1, skipped: 0, skipped_reason: null });
    const paused = dataOf(
      await call(t.app, { method: 'POST', url: '/pipeline/queues/parse/pause', headers: owner.auth }),
    );
    expect(paused).toMatchObject({ name: 'parse', paused: true });
    expect(await t.deps.queues.get('parse').isPaused()).toBe(true);
    expect(
      dataOf(await call(t.app, { method: 'POST', url: '/pipeline/queues/parse/resume', headers: owner.auth })).paused,
    ).toBe(false);
    expect(await t.deps.queues.get('parse').isPaused()).toBe(false);
    expectError(
      await call(t.app, { method: 'POST', url: '/pipeline/queues/nope/pause', headers: owner.auth }),
      404,
      'NOT_FOUND',
    );
  });

  it("retries a queue's failed jobs", async () => {
    const q = t.deps.queues.get('mail');
    const worker = new Worker(
      'mail',
      async () => {
        throw new Error('boom');
      },
      { connection: t.deps.queues.workerConnection(), prefix: t.deps.queues.prefix },
    );
    await q.add('probe', { x: 1 }, { attempts: 1, removeOnFail: false });
    await eventually(async () => (await q.getJobCounts('failed')).failed === 1, 'the probe job to fail');
    await worker.close();
    const r = dataOf(
      await call(t.app, { method: 'POST', url: '/pipeline/queues/mail/retry-failed', headers: owner.auth }),
      202,
    );
    expect(r).toMatchObject({ name: 'mail', failed: 0, retried: 1 });
    expect((await q.getJobCounts('waiting')).waiting).toBe(1);
  });

  it("retries the documents that failed at a stage, and reprocesses one stage over every document, only the caller's own", async () => {
    const other = await quickActor(t);
    const otherProject = (await makeProject(t.app, other.auth)).id;
    await fail(other.orgId, otherProject, 'classify');
    await fail(owner.orgId, projectId, 'classify', 'test');
    await fail(owner.orgId, projectId, 'parse');
    const batch = dataOf(
      await call(t.app, { method: 'POST', url: '/pipeline/stages/classify/retry-failed', headers: owner.auth }),
      202,
    );
    expect(batch).toMatchObject({ total: 1, stages: ['classify', 'extract'], mode: 'all' });
    const { rows } = await t.testDb.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM documents WHERE status = 'failed' AND error->>'stage' = 'classify' AND org_id = $1 AND environment = 'live'`,
      [owner.orgId],
    );
    expect(Number(rows[0].n)).toBe(0);
    const all = dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/pipeline/stages/embed/reprocess',
        headers: owner.auth,
        payload: { mode: 'all' },
      }),
      202,
    );
    const { rows: mine } = await t.testDb.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM documents WHERE org_id = $1 AND environment = 'live'`,
      [owner.orgId],
    );
    expect(all).toMatchObject({ total: Number(mine[0].n), stages: ['embed'], mode: 'all' });
    const testMode = dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/pipeline/stages/embed/reprocess',
        headers: { ...owner.auth, 'x-environment': 'test' },
        payload: { mode: 'all' },
      }),
      202,
    );
    expect(testMode.total).toBe(1);
    expectError(
      await call(t.app, {
        method: 'POST',
        url: '/pipeline/stages/nope/reprocess',
        headers: owner.auth,
        payload: { mode: 'all' },
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('with several organizations nobody operates the queues unless named; stage counts stay per organization; admins only', async () => {
    const other = await quickActor(t);
    const p = dataOf(await call(t.app, { url: '/pipeline', headers: owner.auth }));
    expect(p.can_control_queues).toBe(false);
    expect(p.queues).toBeNull();
    expect(p.queues_reason).toMatch(/PIPELINE_OPERATOR_ORGS/);
    expectError(
      await call(t.app, { method: 'POST', url: '/pipeline/queues/parse/pause', headers: owner.auth }),
      403,
      'FORBIDDEN',
    );
    expect(dataOf(await call(t.app, { url: '/pipeline', headers: other.auth })).stages.parse.failed).toBe(0);
    const member = await quickActor(t, { role: 'member', orgId: owner.orgId });
    expectError(await call(t.app, { url: '/pipeline', headers: member.auth }), 403, 'FORBIDDEN');
    expectError(
      await call(t.app, { method: 'POST', url: '/pipeline/stages/parse/retry-failed', headers: member.auth }),
      403,
      'FORBIDDEN',
    );
  });

  it('PIPELINE_OPERATOR_ORGS names the operators', async () => {
    const named = await createTestApp(kind);
    try {
      const a = await quickActor(named);
      const b = await quickActor(named);
      const { createDeps } = await import('../../../src/container.js');
      const { appDepsFrom, buildApp } = await import('../../../src/http/app.js');
      const { createLogger } = await import('../../../src/lib/logger.js');
      const deps = await createDeps(
        { ...named.config, PIPELINE_OPERATOR_ORGS: [a.orgId] },
        {
          db: named.testDb.db,
          redisUrl: named.deps.redisUrl,
          logger: createLogger({ level: 'silent', pretty: false }),
          migrate: false,
        },
      );
      const app = await buildApp(appDepsFrom(deps));
      try {
        expect(dataOf(await call(app, { url: '/pipeline', headers: a.auth })).can_control_queues).toBe(true);
        expectError(
          await call(app, { method: 'POST', url: '/pipeline/queues/embed/pause', headers: b.auth }),
          403,
          'FORBIDDEN',
        );
      } finally {
        await app.close();
        await deps.close();
      }
    } finally {
      await named.close();
    }
  });
  it('counts the documents whose last run skipped a stage, with the latest reason, per organization and mode', async () => {
    let n = 0;
    const skip = async (orgId: string, project: string, message: string, env: 'live' | 'test' = 'live') => {
      n += 1;
      const id = await insertDocument(t, { orgId, projectId: project, status: 'completed', environment: env });
      // Later calls are later updates: the latest reason is the one shown.
      await t.testDb.db.query(
        `UPDATE documents SET pipeline = $2, updated_at = now() + $3 * interval '1 second' WHERE id = $1`,
        [
          id,
          JSON.stringify({
            stages: ['parse', 'embed', 'classify', 'extract'],
            current: null,
            skipped: { embed: { code: 'EMBEDDING_UNAVAILABLE', message } },
          }),
          n,
        ],
      );
      return id;
    };
    const me = await quickActor(t);
    const mine = (await makeProject(t.app, me.auth)).id;
    const other = await quickActor(t);
    const theirs = (await makeProject(t.app, other.auth)).id;
    await skip(me.orgId, mine, 'model docpipe-test/a not found');
    const latest = await skip(me.orgId, mine, 'model docpipe-test/b not found');
    await skip(me.orgId, mine, 'test-mode reason', 'test');
    await skip(other.orgId, theirs, 'their reason');
    const p = dataOf(await call(t.app, { url: '/pipeline', headers: me.auth }));
    expect(p.stages.embed).toEqual({
      in_progress: 0,
      failed: 0,
      skipped: 2,
      skipped_reason: 'model docpipe-test/b not found',
    });
    expect(p.stages.parse.skipped).toBe(0);
    const doc = dataOf(await call(t.app, { url: `/documents/${latest}`, headers: me.auth }));
    expect(doc.pipeline.skipped).toEqual({
      embed: { code: 'EMBEDDING_UNAVAILABLE', message: 'model docpipe-test/b not found' },
    });
    // Another organization's document stays theirs.
    expectError(await call(t.app, { url: `/documents/${latest}`, headers: other.auth }), 404, 'NOT_FOUND');
    const testMode = dataOf(await call(t.app, { url: '/pipeline', headers: { ...me.auth, 'x-environment': 'test' } }));
    expect(testMode.stages.embed).toMatchObject({ skipped: 1, skipped_reason: 'test-mode reason' });
  });
});
