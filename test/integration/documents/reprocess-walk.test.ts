// Reprocess batches at scale: the request answers at once and a walker (a maintenance job) queues
// the documents page by page by keyset, within a bound of unfinished documents, and resumes from
// the batch's stored cursor after dying between a page's commit and its queueing or being stopped.
// Every document is reprocessed exactly once; other organizations' documents never take part.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, eventually, type DocsApp } from '../../helpers/docs-app.js';
import { createProject } from '../../helpers/pipeline.js';
import { createReprocessWalker } from '../../../src/modules/documents/reprocess-walker.js';
import { MAINTENANCE_QUEUE, walkJobId } from '../../../src/jobs/maintenance.js';
import { sweepWalks } from '../../../workers/maintenance.js';
import { api, dataOf, invoiceText } from './fixtures.js';

const PAGE = 50;
const MAX_IN_FLIGHT = 150;

/**
 * `n` parsed documents straight into the database, five to each microsecond of created_at (the
 * keyset's tie-break on id and the cursor's microseconds matter).
 */
async function seedDocs(t: DocsApp, projectId: string, n: number, tag: string): Promise<string[]> {
  const { rows } = await t.deps.db.query<{ id: string }>(
    `INSERT INTO documents (id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key, source,
       status, text_content, parsed_at, page_count, created_at, updated_at, completed_at)
     SELECT 'doc_' || $2 || lpad(i::text, 6, '0'), p.org_id, p.environment, p.id, 'seed-' || i || '.txt', 'text/plain', 100,
       md5($2 || i), md5($2 || i), 'upload', 'completed', $4, now(), 1,
       timestamptz '2026-01-01 00:00:00+00' + ((i / 5) * interval '1 microsecond'), now(), now()
     FROM projects p, generate_series(1, $3::int) AS i WHERE p.id = $1
     RETURNING id`,
    [projectId, tag, n, invoiceText('walk')],
  );
  return rows.map((r) => r.id);
}

async function count(t: DocsApp, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await t.deps.db.query<{ n: number }>(sql, params);
  return Number(rows[0].n);
}

/** Every document of the project ran once for the batch: one item, one new version, one extract commit. */
async function expectExactlyOnce(t: DocsApp, batchId: string, projectId: string, n: number) {
  expect(
    await count(t, 'SELECT count(DISTINCT document_id) AS n FROM batch_items WHERE batch_id = $1', [batchId]),
  ).toBe(n);
  expect(await count(t, 'SELECT count(*) AS n FROM batch_items WHERE batch_id = $1', [batchId])).toBe(n);
  expect(await count(t, 'SELECT count(*) AS n FROM documents WHERE project_id = $1 AND version = 2', [projectId])).toBe(
    n,
  );
  expect(
    await count(
      t,
      `SELECT count(*) AS n FROM stage_runs r JOIN documents d ON d.id = r.document_id WHERE d.project_id = $1 AND r.stage = 'extract'`,
      [projectId],
    ),
  ).toBe(n);
}

describe.each(dbKinds())('reprocess walker (%s)', (kind) => {
  let t: DocsApp;
  let actor: Actor;
  let other: Actor;
  beforeAll(async () => {
    t = await createDocsApp({
      kind,
      env: { REPROCESS_PAGE_SIZE: String(PAGE), REPROCESS_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT) },
      workers: false,
      maintenance: { sweepIntervalMs: 300, staleMs: 500 },
    });
    actor = await createActor(t);
    other = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const batchOf = async (who: Actor, id: string) => dataOf(await api(t, who, 'GET', `/batches/${id}`));

  it('walks a batch of 1,200 documents within the in-flight bound to the end, each document once', async () => {
    const projectId = await createProject(t, actor);
    const foreignProject = await createProject(t, other);
    await seedDocs(t, projectId, 1200, 'a');
    const foreign = await seedDocs(t, foreignProject, 40, 'f');
    await t.startWorkers();

    const created = dataOf(
      await api(t, actor, 'POST', '/documents/reprocess', { project_id: projectId, stages: ['extract'], mode: 'all' }),
      202,
    );
    // Counted once up front; the request queued the first page, the walker the rest.
    expect(created).toMatchObject({ total: 1200, status: 'running', walking: true, queued: PAGE });
    expect((await api(t, other, 'GET', `/batches/${created.id}`)).statusCode).toBe(404);

    let peak = 0;
    const done = await eventually(
      async () => {
        const b = await batchOf(actor, created.id);
        peak = Math.max(peak, b.pending);
        return b.status === 'completed' ? b : null;
      },
      'the batch to complete',
      120_000,
      50,
    );
    expect(done).toMatchObject({ total: 1200, queued: 1200, completed: 1200, failed: 0, pending: 0, walking: false });
    expect(done.progress).toBe(1);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    await expectExactlyOnce(t, created.id, projectId, 1200);
    // The other organization's documents were never touched.
    expect(
      await count(t, 'SELECT count(*) AS n FROM documents WHERE id = ANY($1::text[]) AND version = 1', [foreign]),
    ).toBe(40);

    // A list naming another organization's documents takes only the caller's.
    const mixed = dataOf(
      await api(t, actor, 'POST', '/documents/reprocess', {
        document_ids: [...foreign.slice(0, 5), 'doc_a000001', 'doc_a000002'],
        stages: ['extract'],
        mode: 'all',
      }),
      202,
    );
    expect(mixed.total).toBe(2);
    const mixedDone = await eventually(async () => {
      const b = await batchOf(actor, mixed.id);
      return b.status === 'completed' ? b : null;
    }, 'the list batch');
    expect(mixedDone).toMatchObject({ queued: 2, completed: 2 });
    expect(
      await count(t, 'SELECT count(*) AS n FROM documents WHERE id = ANY($1::text[]) AND version = 1', [foreign]),
    ).toBe(40);
    await t.stopWorkers();
  });

  it('resumes from the stored cursor after dying between a commit and its queueing, and after a stop', async () => {
    const projectId = await createProject(t, actor);
    await seedDocs(t, projectId, 600, 'r');
    const created = dataOf(
      await api(t, actor, 'POST', '/documents/reprocess', { project_id: projectId, stages: ['extract'], mode: 'all' }),
      202,
    );
    expect(created).toMatchObject({ total: 600, queued: PAGE, walking: true });

    // A walker process dies right after its page committed, before queueing the page's jobs.
    const m = t.deps.documents;
    const dying = createReprocessWalker(
      {
        db: t.deps.db,
        docs: m.docs,
        batches: m.batches,
        runs: {
          startMany: (...a) => t.deps.documents.runs.startMany(...a),
          enqueueMany: () => Promise.reject(new Error('process killed')),
        },
      },
      { pageSize: PAGE, maxInFlight: MAX_IN_FLIGHT },
    );
    await expect(dying.page(created.id)).rejects.toThrow('process killed');
    expect(await batchOf(actor, created.id)).toMatchObject({ queued: 2 * PAGE, walking: true });

    // Its walker job is lost too (Redis data gone): the sweep queues it again, once.
    const maintenance = t.deps.queues.get(MAINTENANCE_QUEUE);
    await (await maintenance.getJob(walkJobId(created.id)))!.remove();
    expect(await sweepWalks(t.deps, 0)).toBe(1);
    expect(await sweepWalks(t.deps, 0)).toBe(0);
    expect(await (await maintenance.getJob(walkJobId(created.id)))!.getState()).toBe('waiting');

    // Workers start (the walker job queued by the request resumes at the cursor) and are stopped mid-walk.
    await t.startWorkers();
    await eventually(async () => {
      const b = await batchOf(actor, created.id);
      return b.queued >= 3 * PAGE;
    }, 'the walk to move');
    await t.stopWorkers();
    const stopped = await batchOf(actor, created.id);
    expect(stopped.walking).toBe(true);
    expect(stopped.queued).toBeLessThan(600);

    await t.startWorkers();
    const done = await eventually(
      async () => {
        const b = await batchOf(actor, created.id);
        return b.status === 'completed' ? b : null;
      },
      'the resumed batch to complete',
      120_000,
    );
    expect(done).toMatchObject({ total: 600, queued: 600, completed: 600, failed: 0, walking: false });
    // The page whose jobs were never queued was found by the sweeper, not walked again.
    await expectExactlyOnce(t, created.id, projectId, 600);
    await t.stopWorkers();
  });
});
