// Redis killed (SIGKILL) and started again while documents are in flight: with AOF on, the
// queues come back, workers reconnect, the sweeper re-queues whatever was lost in the last
// second before the crash, and every document completes with each stage committed once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../../../workers/maintenance.js';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, eventCounts, eventually, stageRunCounts, type DocsApp } from '../../helpers/docs-app.js';
import { makeLongTextPdf } from '../../helpers/long-pdf.js';
import { createProject, upload } from '../../helpers/pipeline.js';
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.js';
import { dataOf, invoiceText, RECEIPT_TEXT } from '../documents/fixtures.js';

const TERMINAL = ['completed', 'failed', 'needs_review'];

describe.each(dbKinds())('Redis restarted mid-pipeline (%s)', (kind) => {
  let redis: PrivateRedis;
  let t: DocsApp;
  let actor: Actor;
  beforeAll(async () => {
    redis = await startPrivateRedis({ appendonly: true });
    // Short locks so a job whose owner lost track of it is picked up again within the test.
    t = await createDocsApp({ kind, redisUrl: redis.url, lock: { lockDurationMs: 3_000, stalledIntervalMs: 1_000 } });
    actor = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('every document in flight completes after Redis comes back', { timeout: 90_000 }, async () => {
    const projectId = await createProject(t, actor, { classification_threshold: 0 });
    const ids: string[] = [];
    const send = async (name: string, data: Buffer) =>
      ids.push(dataOf(await upload(t, actor, projectId, name, data), 201).id);
    for (let i = 0; i < 3; i++) await send(`invoice-${i}.txt`, Buffer.from(invoiceText(`r${i}`)));
    await send('receipt.txt', Buffer.from(RECEIPT_TEXT));

    const statuses = async () =>
      (
        await t.deps.db.query<{ id: string; status: string }>(
          'SELECT id, status FROM documents WHERE id = ANY($1::text[])',
          [ids],
        )
      ).rows;
    // Mid-way: some documents are done, others are not. The long PDFs are sent only once a
    // short document has finished (sent together, all of them could finish before the first
    // poll on a fast run), and Redis dies while one of them is being parsed.
    await eventually(
      async () => (await statuses()).some((r) => r.status === 'completed'),
      'a first document to complete',
    );
    const ledgers: string[] = [];
    for (let i = 0; i < 3; i++) {
      await send(`ledger-${i}.pdf`, makeLongTextPdf(300 + i));
      ledgers.push(ids[ids.length - 1]);
    }
    let before: { id: string; status: string }[] = [];
    await eventually(async () => {
      before = await statuses();
      const { rows } = await t.deps.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM documents WHERE id = ANY($1::text[]) AND status = 'processing' AND pipeline->>'current' = 'parse'`,
        [ledgers],
      );
      return rows[0].n > 0;
    }, 'a long PDF to be in the parser');

    const firstDone = before.find((r) => r.status === 'completed')!.id;
    await redis.restart();
    // The data survived the crash (AOF): the finished parse job of the first document is still there.
    expect(
      await eventually(async () => t.deps.queues.get('parse').getJob(`parse-${firstDone}-v1`), 'Redis to answer again'),
    ).toBeTruthy();

    // The maintenance scheduler sweeps every 30 s in production; here the test sweeps each second.
    let swept = 0;
    await eventually(
      async () => {
        swept += await sweep(t.deps, 0).catch(() => 0);
        return (await statuses()).every((r) => TERMINAL.includes(r.status));
      },
      'every document to finish',
      75_000,
      1_000,
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
    console.log(
      `redis restart (${kind}): ${before.filter((r) => !TERMINAL.includes(r.status)).length} of ${ids.length} documents were in flight; the sweeper re-queued ${swept}`,
    );

    // And the service as a whole is healthy again: a new upload goes through.
    const after = dataOf(await upload(t, actor, projectId, 'after.txt', Buffer.from(invoiceText('after'))), 201);
    await eventually(
      async () =>
        (await t.deps.db.query<{ status: string }>('SELECT status FROM documents WHERE id = $1', [after.id])).rows[0]
          .status === 'completed',
      'the new document',
    );
  });
});
