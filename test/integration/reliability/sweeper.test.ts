// The sweeper: a document whose pending stage has no job (lost from Redis) is queued again
// under its deterministic id and completes with each stage committed once; a job that failed
// without the document being told fails the document; documents with live jobs are left alone.
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../../../workers/maintenance.js';
import { startWorkers } from '../../../workers/index.js';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, eventCounts, eventually, stageRunCounts, type DocsApp } from '../../helpers/docs-app.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { dataOf, invoiceText, RECEIPT_TEXT } from '../documents/fixtures.js';

const ONCE = { 'document.uploaded': 1, 'document.processed': 1, 'document.classified': 1, 'document.extracted': 1 };

describe.each(dbKinds())('sweeper (%s)', (kind) => {
  let t: DocsApp;
  let actor: Actor;
  let projectId: string;
  beforeAll(async () => {
    t = await createDocsApp({ kind, workers: false });
    actor = await createActor(t);
    projectId = await createProject(t, actor);
  });
  afterAll(async () => {
    await t?.close();
  });

  const state = async (stage: 'parse' | 'embed', id: string) => {
    const job = await t.deps.queues.get(stage).getJob(id);
    return job ? job.getState() : 'missing';
  };

  it('re-queues a document whose job vanished, and it completes once', async () => {
    const doc = dataOf(await upload(t, actor, projectId, 'lost.txt', Buffer.from(invoiceText('lost'))), 201);
    const jobId = `parse-${doc.id}-v1`;
    expect(await state('parse', jobId)).toBe('waiting');
    expect(await sweep(t.deps, 0)).toBe(0);

    await (await t.deps.queues.get('parse').getJob(jobId))!.remove();
    expect(await state('parse', jobId)).toBe('missing');
    // Recently touched documents are given time (their job may be about to be added).
    expect(await sweep(t.deps, 60_000)).toBe(0);
    expect(await sweep(t.deps, 0)).toBe(1);
    expect(await state('parse', jobId)).toBe('waiting');
    expect(await sweep(t.deps, 0)).toBe(0);

    await t.startWorkers();
    try {
      expect((await waitForDocument(t, doc.id)).status).toBe('completed');
    } finally {
      await t.stopWorkers();
    }
    expect(await stageRunCounts(t.deps, doc.id)).toEqual({ parse: 1, embed: 1, classify: 1, extract: 1 });
    expect(await eventCounts(t.deps, doc.id)).toEqual(ONCE);
  });

  it('recovers a document whose later stage job was lost with its whole queue', async () => {
    const parseOnly = await startWorkers(t.deps, { queues: ['parse'], concurrency: 1 });
    const doc = dataOf(await upload(t, actor, projectId, 'midway.txt', Buffer.from(RECEIPT_TEXT + '\nmidway')), 201);
    const embedJob = `embed-${doc.id}-v1`;
    try {
      await eventually(async () => (await state('embed', embedJob)) === 'waiting', 'the embed job');
    } finally {
      await parseOnly.close(5_000);
    }
    await t.deps.queues.get('embed').obliterate({ force: true });
    const stuck = await waitForDocument(t, doc.id, 1_000, new Set(['processing']));
    expect(stuck.pipeline.current).toBe('embed');
    expect(await sweep(t.deps, 0)).toBe(1);

    await t.startWorkers();
    try {
      expect((await waitForDocument(t, doc.id)).status).toBe('completed');
    } finally {
      await t.stopWorkers();
    }
    expect(await stageRunCounts(t.deps, doc.id)).toEqual({ parse: 1, embed: 1, classify: 1, extract: 1 });
    expect(await eventCounts(t.deps, doc.id)).toEqual(ONCE);
  });

  it('fails a document whose job failed without the document being told', async () => {
    const doc = dataOf(await upload(t, actor, projectId, 'doomed.txt', Buffer.from(invoiceText('doomed'))), 201);
    // A worker takes the job and the job ends failed, but nothing recorded it on the document
    // (say the process died right after BullMQ stored the failure).
    const grabber = new Worker('parse', null, {
      connection: t.deps.queues.workerConnection(),
      prefix: t.deps.queues.prefix,
    });
    try {
      const token = 'test-token';
      const job = await eventually(async () => {
        const j = await grabber.getNextJob(token);
        if (j && j.id !== `parse-${doc.id}-v1`) throw new Error(`unexpected job ${j.id}`);
        return j;
      }, 'the parse job');
      // Its last attempt: the failure is final.
      job.attemptsMade = job.opts.attempts ?? 1;
      await job.moveToFailed(new Error('disk on fire'), token, false);
    } finally {
      await grabber.close();
    }
    expect(await state('parse', `parse-${doc.id}-v1`)).toBe('failed');
    expect(await sweep(t.deps, 0)).toBe(0);
    const d = dataOf(await t.app.inject({ method: 'GET', url: `/api/v1/documents/${doc.id}`, headers: actor.auth }));
    expect(d.status).toBe('failed');
    expect(d.error).toMatchObject({ stage: 'parse', code: 'STAGE_FAILED', message: 'disk on fire' });
    expect(d.pipeline.current_stage).toBeNull();
    // A failed document is not the sweeper's business any more.
    expect(await sweep(t.deps, 0)).toBe(0);
  });
});
