// Redis loses all its data while documents are in flight (FLUSHDB here; a restart without AOF or
// a failover to an empty replica is the same thing): the pipeline jobs and the maintenance
// schedulers are gone. The service must notice by itself — no restart — re-install its
// schedulers, find the documents whose jobs vanished and finish every one of them exactly once.
// Each test runs its own redis-server: flushing the suite's shared Redis would wipe other tests.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, eventCounts, eventually, stageRunCounts, type DocsApp } from '../../helpers/docs-app.js';
import { createProject, upload } from '../../helpers/pipeline.js';
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.js';
import { dataOf, invoiceText, RECEIPT_TEXT } from '../documents/fixtures.js';

const TERMINAL = ['completed', 'failed', 'needs_review'];
// Production timing is 30 s / 60 s / 60 s; shortened so the test runs in seconds.
const TIMING = { sweepIntervalMs: 500, staleMs: 1_000, reassertIntervalMs: 1_000 };

describe.each(dbKinds())('Redis data lost mid-run (%s)', (kind) => {
  let redis: PrivateRedis;
  let t: DocsApp;
  let actor: Actor;
  let admin: Redis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    admin = new Redis(redis.url);
    t = await createDocsApp({ kind, redisUrl: redis.url, maintenance: TIMING });
    actor = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
    admin?.disconnect();
    await redis?.stop();
  });

  const schedulers = async () => {
    const q = t.deps.queues.get('maintenance');
    return { sweep: !!(await q.getJobScheduler('sweep')), retention: !!(await q.getJobScheduler('retention')) };
  };

  it('every document completes after FLUSHDB, without restarting the service', { timeout: 90_000 }, async () => {
    expect(await schedulers()).toEqual({ sweep: true, retention: true });
    const projectId = await createProject(t, actor, { classification_threshold: 0 });
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) {
      const text = i % 4 === 3 ? `${RECEIPT_TEXT}\nReceipt copy ${i}` : invoiceText(`f${i}`);
      ids.push(dataOf(await upload(t, actor, projectId, `doc-${i}.txt`, Buffer.from(text)), 201).id);
    }
    const statuses = async () =>
      (
        await t.deps.db.query<{ id: string; status: string }>(
          'SELECT id, status FROM documents WHERE id = ANY($1::text[])',
          [ids],
        )
      ).rows;

    // Flush as soon as the first document is through: the rest are waiting or mid-stage.
    await eventually(
      async () => (await statuses()).some((r) => r.status === 'completed'),
      'a first document to complete',
      60_000,
      20,
    );
    await admin.flushdb();
    const inFlight = (await statuses()).filter((r) => !TERMINAL.includes(r.status)).length;
    expect(inFlight).toBeGreaterThan(0);

    await eventually(
      async () => (await statuses()).every((r) => TERMINAL.includes(r.status)),
      'every document to finish',
      75_000,
      200,
    );
    for (const id of ids) {
      const d = dataOf(await t.app.inject({ method: 'GET', url: `/api/v1/documents/${id}`, headers: actor.auth }));
      expect(d.status, `${d.filename}: ${JSON.stringify(d.error)}`).toBe('completed');
      expect(await stageRunCounts(t.deps, id), d.filename).toEqual({ parse: 1, embed: 1, classify: 1, extract: 1 });
      expect(await eventCounts(t.deps, id), d.filename).toEqual({
        'document.uploaded': 1,
        'document.processed': 1,
        'document.classified': 1,
        'document.extracted': 1,
      });
    }
    // Retention and the scheduled sweep are installed again, not silently gone.
    await eventually(
      async () => {
        const s = await schedulers();
        return s.sweep && s.retention;
      },
      'the maintenance schedulers to be re-installed',
      10_000,
    );
    console.log(`redis flush (${kind}): ${inFlight} of ${ids.length} documents were in flight`);

    // A document uploaded afterwards goes through too.
    const after = dataOf(await upload(t, actor, projectId, 'after.txt', Buffer.from(invoiceText('after'))), 201);
    await eventually(
      async () =>
        (await t.deps.db.query<{ status: string }>('SELECT status FROM documents WHERE id = $1', [after.id])).rows[0]
          .status === 'completed',
      'the new document',
    );
  });
});

describe('Redis restarted empty', () => {
  let redis: PrivateRedis;
  let t: DocsApp;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    // Re-assertion by timer is an hour away: only the reconnect can bring the schedulers back in time.
    t = await createDocsApp({ redisUrl: redis.url, maintenance: { ...TIMING, reassertIntervalMs: 3_600_000 } });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('re-installs the schedulers as soon as the connection is back', { timeout: 30_000 }, async () => {
    const q = t.deps.queues.get('maintenance');
    expect(await q.getJobScheduler('retention')).toBeTruthy();
    await redis.restart(); // no AOF: it comes back with nothing
    await eventually(
      async () => (await q.getJobScheduler('retention')) && (await q.getJobScheduler('sweep')),
      'the schedulers after the reconnect',
      15_000,
      100,
    );
  });
});
