import { DelayedError, Worker, type Job } from 'bullmq';
import { MAINTENANCE_QUEUE, queueWalk, walkJobId, type MaintenanceJob } from '../src/jobs/maintenance.js';
import { jobWithState, LIVE_JOB_STATES, sweepOpenRecords } from '../src/jobs/open-records.js';
import type { Queues } from '../src/jobs/queues.js';
import type { Logger } from '../src/lib/logger.js';
import type { Redis, RedisKeys } from '../src/lib/redis.js';
import type { ClassifierService } from '../src/modules/classifier/classifier.service.js';
import type { BatchesRepository } from '../src/modules/documents/batches.repository.js';
import type { DocumentsRepository } from '../src/modules/documents/documents.repository.js';
import type { DocumentsService } from '../src/modules/documents/documents.service.js';
import { enqueueStage, stageJobId } from '../src/modules/documents/flow.js';
import type { ReprocessWalker } from '../src/modules/documents/reprocess-walker.js';
import type { StageRunner } from '../src/modules/documents/stage-runner.js';
import type { StageStateRepository } from '../src/modules/documents/stage-state.repository.js';
import type { IdempotencyService } from '../src/modules/idempotency/index.js';
import type { BlobStore } from '../src/storage/blob-store.js';
import { closeWorker } from './close.js';
import { startMaintenanceTimers, sweepUnderLock } from './maintenance-timers.js';

/**
 * Documents untouched this long while a stage is pending are checked by the sweeper. It finds
 * those whose next job was never queued (a crash between the stage's commit and the enqueue);
 * with the 10 s sweep period such a document moves again within 25 s. Documents whose job is
 * merely waiting in a long queue are looked at and left alone.
 */
const STALE_MS = 15_000;
/** Sweeper period. */
const SWEEP_EVERY_MS = 10_000;

/** What maintenance uses (the container fits as is). */
export interface MaintenanceDeps {
  queues: Queues;
  redis: Redis;
  keys: Pick<RedisKeys, 'lock'>;
  logger: Logger;
  blobs: Pick<BlobStore, 'sweep'>;
  documents: {
    docs: Pick<DocumentsRepository, 'pastRetention' | 'storageKeysInUse'>;
    stages: Pick<StageStateRepository, 'stalePending'>;
    runner: Pick<StageRunner, 'fail'>;
    service: Pick<DocumentsService, 'deleteMany'>;
    classifier: Pick<ClassifierService, 'retrain'>;
    batches: Pick<BatchesRepository, 'staleWalks'>;
    walker: Pick<ReprocessWalker, 'walk'>;
  };
  /** Idempotency-Key responses past 24 hours are deleted with the daily retention job. */
  services?: { idempotency?: Pick<IdempotencyService, 'sweep'> };
}

/**
 * The sweeper: a document can never stay in processing forever. Any document whose pending
 * stage has no live job (lost in a Redis restart, or a crash between commit and enqueue) is
 * queued again under its deterministic job id.
 */
export async function sweep(
  deps: Pick<MaintenanceDeps, 'queues' | 'logger' | 'documents'>,
  staleMs = STALE_MS,
): Promise<number> {
  const rows = await deps.documents.stages.stalePending(staleMs, 500);
  let requeued = 0;
  for (const doc of rows) {
    const stage = doc.pipeline.current!;
    const { job, state } = await jobWithState(deps.queues.get(stage), stageJobId(stage, doc.id, doc.version));
    if (state === 'changing' || LIVE_JOB_STATES.has(state)) continue;
    if (state === 'failed') {
      await deps.documents.runner.fail(
        stage,
        { documentId: doc.id, version: doc.version },
        'STAGE_FAILED',
        job?.failedReason ?? 'stage failed',
      );
      continue;
    }
    if (job) await job.remove().catch(() => undefined);
    await enqueueStage(deps.queues, stage, doc);
    requeued++;
  }
  if (requeued) deps.logger.warn({ requeued }, 'sweeper re-queued documents whose jobs had vanished');
  await sweepWalks(deps, staleMs);
  return requeued;
}

/**
 * Batches still being walked whose walker job vanished (lost with Redis data, a crash between the
 * batch's commit and queueing its walker) or gave up are walked again from their cursor.
 */
export async function sweepWalks(
  deps: Pick<MaintenanceDeps, 'queues' | 'logger' | 'documents'>,
  staleMs = STALE_MS,
): Promise<number> {
  const walks = await deps.documents.batches.staleWalks(staleMs, 100);
  if (walks.length === 0) return 0;
  const { requeued } = await sweepOpenRecords(walks, {
    queue: deps.queues.get(MAINTENANCE_QUEUE),
    jobIdOf: (b) => walkJobId(b.id),
    // A walk that failed (its database away) resumes from its cursor: never given up.
    gaveUp: () => false,
    fail: async () => undefined,
    requeue: (b) => queueWalk(deps.queues, b.id),
  });
  if (requeued) deps.logger.warn({ requeued }, 'sweeper re-queued batch walkers whose jobs had vanished');
  return requeued;
}

/**
 * One slice of a batch walk. The job re-schedules itself (same id) until the batch is walked, so
 * the queue's other jobs get turns and a full batch waits without holding the worker.
 */
const WALK_SLICE_MS = 2_000;

/** Deletes documents older than their project's retention_days, with files and events. */
export async function applyRetention(deps: Pick<MaintenanceDeps, 'logger' | 'documents'>): Promise<number> {
  const rows = await deps.documents.docs.pastRetention(1000);
  if (rows.length === 0) return 0;
  const n = await deps.documents.service.deleteMany(rows);
  deps.logger.info({ deleted: n }, 'retention deleted expired documents');
  return n;
}

/** Deletes stored Idempotency-Key responses older than 24 hours (the key may then be used again). */
export async function sweepIdempotencyKeys(deps: Pick<MaintenanceDeps, 'logger' | 'services'>): Promise<number> {
  const n = (await deps.services?.idempotency?.sweep()) ?? 0;
  if (n) deps.logger.info({ deleted: n }, 'deleted Idempotency-Key responses past 24 hours');
  return n;
}

/** Files nothing refers to are left this long before the sweep removes them. */
const ORPHAN_FILE_GRACE_MS = 60 * 60_000;

/**
 * Removes stored files no document refers to (left by a crash between storing an upload and
 * committing its row, or by a removal that failed) and stale temporary files. Files an intake
 * holds are never touched, whatever their age. Runs with the daily retention job.
 */
export async function sweepOrphanFiles(
  deps: Pick<MaintenanceDeps, 'blobs' | 'logger' | 'documents'>,
  graceMs = ORPHAN_FILE_GRACE_MS,
): Promise<{ removed: number; temporary: number }> {
  const res = await deps.blobs.sweep({
    olderThanMs: graceMs,
    inUse: (keys) => deps.documents.docs.storageKeysInUse(keys),
  });
  if (res.removed || res.temporary) deps.logger.info(res, 'removed stored files nothing refers to');
  return res;
}

/** Tuning of {@link startMaintenance}; every field but `schedulers` is optional. */
export interface MaintenanceOptions {
  /**
   * This process keeps the periodic maintenance going: it installs the repeatable jobs (sweep,
   * retention), re-asserts them periodically and on every Redis reconnect, and runs the sweeper
   * from its own timer as well.
   */
  schedulers: boolean;
  /** Sweeper period, ms. Default 10000. */
  sweepIntervalMs?: number;
  /** How long a pending stage may sit untouched before the sweeper checks its job, ms. Default 15000. */
  staleMs?: number;
  /** How often the schedulers are upserted again, ms. Default 60000. */
  reassertIntervalMs?: number;
}

/** A sweeper pass taking longer than this frees its lock for the next one. */
const SWEEP_LOCK_MS = 5 * 60_000;

/** The `maintenance` worker (sweeps, retention, classifier retraining) and, with `schedulers`, its timers. */
export async function startMaintenance(
  deps: MaintenanceDeps,
  opts: MaintenanceOptions,
): Promise<{ close(timeoutMs?: number): Promise<void> }> {
  const q = deps.queues.get(MAINTENANCE_QUEUE);
  const sweepEveryMs = opts.sweepIntervalMs ?? SWEEP_EVERY_MS;
  const staleMs = opts.staleMs ?? STALE_MS;
  const sweepOnce = () =>
    sweepUnderLock(deps.redis, deps.keys.lock('sweep'), SWEEP_LOCK_MS, () => sweep(deps, staleMs));
  const timers = opts.schedulers
    ? await startMaintenanceTimers({
        queue: q,
        redis: deps.redis,
        logger: deps.logger,
        sweepEveryMs,
        reassertEveryMs: opts.reassertIntervalMs ?? 60_000,
        sweepOnce,
      })
    : undefined;
  const worker = new Worker<MaintenanceJob>(
    MAINTENANCE_QUEUE,
    async (job: Job<MaintenanceJob>, token?: string) => {
      const d = job.data;
      if (d.kind === 'reprocess') {
        const res = await deps.documents.walker.walk(d.batchId, WALK_SLICE_MS);
        if (res.done) return null;
        await job.moveToDelayed(Date.now() + res.waitMs, token);
        throw new DelayedError();
      }
      if (d.kind === 'sweep') return sweepOnce();
      if (d.kind === 'retention') {
        const deleted = await applyRetention(deps);
        await sweepOrphanFiles(deps);
        await sweepIdempotencyKeys(deps);
        return deleted;
      }
      if (d.kind === 'retrain')
        return deps.documents.classifier.retrain({ orgId: d.orgId, environment: d.environment });
      return null;
    },
    { connection: deps.queues.workerConnection(), prefix: deps.queues.prefix, concurrency: 1 },
  );
  worker.on('error', (err) => deps.logger.warn({ err }, 'maintenance worker error'));
  return {
    async close(timeoutMs = 20_000) {
      timers?.stop();
      await closeWorker(worker, timeoutMs);
    },
  };
}
