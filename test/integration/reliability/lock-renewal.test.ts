// The stage workers' short job locks (a dead worker's documents are taken over within seconds)
// must not make long jobs look dead: a parse job that runs many times the lock duration, on a
// long PDF and on a scanned one that needs OCR, keeps its lock (BullMQ renews it while the
// worker's event loop is free, and parsing and OCR run off it), so it runs once and never stalls.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from 'bullmq';
import { STAGES } from '../../../src/modules/documents/documents.types.js';
import { startStageWorker } from '../../../workers/pipeline.js';
import { createActor } from '../../helpers/app.js';
import { createDocsApp, stageRunCounts, type DocsApp } from '../../helpers/docs-app.js';
import { makeLongTextPdf } from '../../helpers/long-pdf.js';
import { makeScannedPdf } from '../../helpers/pdf-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { dataOf } from '../documents/fixtures.js';

const PAGES = 1500;
/** Under a seventh of the production lock, renewed every second (this loaded machine has shown event-loop stalls of 0.6 s). */
const LOCK = { lockDurationMs: 2000, stalledIntervalMs: 500 };

describe('stage job locks under long jobs', () => {
  let t: DocsApp;
  const workers: Worker[] = [];
  const stalled: string[] = [];
  const activations = new Map<string, number>();
  beforeAll(async () => {
    t = await createDocsApp({ workers: false, env: { MAX_PAGES: String(PAGES) } });
    for (const stage of STAGES) {
      const w = startStageWorker(stage, t.deps, 1, LOCK);
      w.on('stalled', (jobId) => stalled.push(jobId));
      w.on('active', (job) => activations.set(job.id!, (activations.get(job.id!) ?? 0) + 1));
      workers.push(w);
    }
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await t?.close();
  });

  it('long parse jobs keep their lock and run once', { timeout: 180_000 }, async () => {
    const actor = await createActor(t);
    const projectId = await createProject(t, actor, { classification_threshold: 0 });
    // Built before anything runs: rendering the scan blocks this (the workers') event loop.
    const longPdf = makeLongTextPdf(PAGES);
    const scanPdf = await makeScannedPdf([
      ['Invoice INV-1001', 'ACME Supplies GmbH', 'Total: 120.00 EUR'],
      ['Page two of the scan', 'Thank you for your order'],
    ]);
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    const long = dataOf(await upload(t, actor, projectId, 'long.pdf', longPdf), 201);
    const scanned = dataOf(await upload(t, actor, projectId, 'scan.pdf', scanPdf), 201);
    for (const doc of [long, scanned]) {
      const done = await waitForDocument(t, doc.id, 150_000);
      expect(done.status, JSON.stringify(done.error)).toBe('completed');
      expect(await stageRunCounts(t.deps, doc.id)).toEqual({ parse: 1, embed: 1, classify: 1, extract: 1 });
      const job = await t.deps.queues.get('parse').getJob(`parse-${doc.id}-v1`);
      // For the log: how many lock durations the job outlived.
      console.info(
        `parse of ${doc.id}: ${job!.finishedOn! - job!.processedOn!} ms with a ${LOCK.lockDurationMs} ms lock`,
      );
      expect(activations.get(`parse-${doc.id}-v1`)).toBe(1);
      expect(job!.stalledCounter ?? 0).toBe(0);
    }
    h.disable();
    console.info(`event-loop delay: max ${(h.max / 1e6).toFixed(0)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(0)} ms`);
    expect(stalled).toEqual([]);
  });
});
