// A pipeline worker process SIGKILLed in the middle of a stage: the job is taken over by a new
// worker process once the dead one's lock expires, the document completes, and every stage's
// effects (its stage_runs row, its event) exist exactly once. On PostgreSQL the test's app and
// the worker processes share the database. PGlite is one process's database, so there the killed
// worker is the only one holding it (as a crashed `docpipe start` would be): the test hands it the
// data directory and opens it again, with workers, after the kill.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../src/db/client.js';
import { createActor } from '../../helpers/app.js';
import { databaseUrl } from '../../helpers/db.js';
import { createDocsApp, eventCounts, eventually, stageRunCounts, type DocsApp } from '../../helpers/docs-app.js';
import { makeLongTextPdf } from '../../helpers/long-pdf.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import {
  forkWorkerProcess,
  workerEnv,
  type WorkerProcess,
  type WorkerProcessOptions,
} from '../../helpers/worker-process.js';
import { pgliteDataDirAt } from '../../helpers/webhooks-harness.js';
import { dataOf } from '../documents/fixtures.js';

const pgUrl = databaseUrl();

/** Long enough that parsing takes seconds (a few ms per page), so the kill lands mid-stage. */
const PAGES = 400;

describe.skipIf(!pgUrl)('pipeline worker killed mid-stage (postgres)', () => {
  let t: DocsApp;
  const procs: WorkerProcess[] = [];
  beforeAll(async () => {
    t = await createDocsApp({ kind: 'postgres', workers: false, env: { MAX_PAGES: String(PAGES) } });
  });
  afterAll(async () => {
    for (const p of procs) await p.kill();
    await t?.close();
  });

  it('the document still completes and each stage commits once', { timeout: 120_000 }, async () => {
    const actor = await createActor(t);
    // Threshold 0: the ledger text must not stop in needs_review; every stage has to run.
    const projectId = await createProject(t, actor, { classification_threshold: 0 });
    const schema = (await t.deps.db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
    const base: Omit<WorkerProcessOptions, 'lock'> = {
      env: workerEnv(t.config),
      db: { url: pgUrl!, schema },
      redisUrl: inject('redisUrl'),
    };

    // A short lock, so the job is free for another worker soon after its owner dies. (The stalled
    // check is rate-limited queue-wide by the interval of whichever worker ran it last, so both
    // processes use a short one.)
    const lock = { lockDurationMs: 2_000, stalledIntervalMs: 500 };
    const doomed = await forkWorkerProcess({ ...base, lock });
    procs.push(doomed);
    const doc = dataOf(await upload(t, actor, projectId, 'long.pdf', makeLongTextPdf(PAGES)), 201);
    const jobId = `parse-${doc.id}-v1`;
    await doomed.waitFor((m) => m.type === 'active' && m.jobId === jobId);
    // The runner marks the document processing right before the stage's work starts.
    await eventually(
      async () =>
        (await t.deps.db.query<{ status: string }>('SELECT status FROM documents WHERE id = $1', [doc.id])).rows[0]
          .status === 'processing',
      'parse to start',
      10_000,
      10,
    );
    await doomed.kill();

    // Killed before the stage committed: nothing of parse is in the database, the job is still "active".
    const mid = (
      await t.deps.db.query<{ status: string; pipeline: { current: string }; parsed_at: Date | null }>(
        'SELECT status, pipeline, parsed_at FROM documents WHERE id = $1',
        [doc.id],
      )
    ).rows[0];
    expect(mid).toMatchObject({ status: 'processing', pipeline: { current: 'parse' }, parsed_at: null });
    expect(await stageRunCounts(t.deps, doc.id)).toEqual({});
    expect(await (await t.deps.queues.get('parse').getJob(jobId))!.getState()).toBe('active');

    const heir = await forkWorkerProcess({ ...base, lock });
    procs.push(heir);
    const done = await waitForDocument(t, doc.id, 60_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.page_count).toBe(PAGES);
    // The new process took the interrupted job over (BullMQ's stalled-job check), not a new one.
    expect(heir.messages.some((m) => m.type === 'active' && m.jobId === jobId)).toBe(true);
    expect(await stageRunCounts(t.deps, doc.id)).toEqual({ parse: 1, embed: 1, classify: 1, extract: 1 });
    expect(await eventCounts(t.deps, doc.id)).toEqual({
      'document.uploaded': 1,
      'document.processed': 1,
      'document.classified': 1,
      'document.extracted': 1,
    });

    // The replacement keeps serving new work.
    const next = dataOf(
      await upload(t, actor, projectId, 'note.txt', Buffer.from('Meeting notes\nThe next review is on Friday.')),
      201,
    );
    expect((await waitForDocument(t, next.id, 30_000)).status).toBe('completed');
    await heir.stop();
  });
});

describe('pipeline worker process killed mid-stage (PGlite, the database handed over on disk)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'docpipe-worker-crash-'));
  const dir = join(tmp, 'db');
  const closing: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closing.reverse()) await close().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  });

  it(
    'the document completes once the database is opened again, and each stage commits once',
    { timeout: 150_000 },
    async () => {
      await pgliteDataDirAt(dir);
      const lock = { lockDurationMs: 2_000, stalledIntervalMs: 500 };
      // This process takes the upload (the parse job waits in Redis), then lets go of the database.
      const firstDb = await createDb({ pgliteDir: dir });
      const testDb = { db: firstDb, kind: 'pglite' as const, close: () => firstDb.close() };
      const first = await createDocsApp({ testDb, workers: false, env: { MAX_PAGES: String(PAGES) } });
      closing.push(async () => rmSync(first.config.dataDir, { recursive: true, force: true }));
      const actor = await createActor(first);
      const projectId = await createProject(first, actor, { classification_threshold: 0 });
      const doc = dataOf(await upload(first, actor, projectId, 'long.pdf', makeLongTextPdf(PAGES)), 201);
      const jobId = `parse-${doc.id}-v1`;
      await first.app.close();
      await first.deps.close();
      await firstDb.close();

      const doomed = await forkWorkerProcess({
        env: workerEnv(first.config),
        db: { pgliteDir: dir },
        redisUrl: inject('redisUrl'),
        lock,
      });
      closing.push(() => doomed.kill());
      await doomed.waitFor((m) => m.type === 'active' && m.jobId === jobId);
      await doomed.kill();

      // The same installation again, with its workers, on the directory the dead process left.
      const againDb = await createDb({ pgliteDir: dir });
      const again = await createDocsApp({
        testDb: { db: againDb, kind: 'pglite', close: () => againDb.close() },
        config: first.config,
        workers: false,
        lock,
      });
      closing.push(() => againDb.close());
      closing.push(() => again.close());
      // Killed before the stage committed: nothing of parse is in the database.
      const mid = (
        await again.deps.db.query<{ parsed_at: Date | null }>('SELECT parsed_at FROM documents WHERE id = $1', [doc.id])
      ).rows[0];
      expect(mid.parsed_at).toBeNull();
      expect(await stageRunCounts(again.deps, doc.id)).toEqual({});
      expect(await (await again.deps.queues.get('parse').getJob(jobId))!.getState()).toBe('active');

      await again.startWorkers();
      const done = await waitForDocument(again, doc.id, 90_000);
      expect(done.status, JSON.stringify(done.error)).toBe('completed');
      expect(done.page_count).toBe(PAGES);
      expect(await stageRunCounts(again.deps, doc.id)).toEqual({ parse: 1, embed: 1, classify: 1, extract: 1 });
      expect(await eventCounts(again.deps, doc.id)).toEqual({
        'document.uploaded': 1,
        'document.processed': 1,
        'document.classified': 1,
        'document.extracted': 1,
      });
    },
  );
});
