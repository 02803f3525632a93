import { Worker, type Job } from 'bullmq';
import type { Deps } from '../src/container.js';
import { enqueueStage, stageJobId } from '../src/modules/documents/flow.js';
import { startMaintenanceTimers, sweepUnderLock } from './maintenance-timers.js';
import type { Environment } from '../src/lib/scope.js';

/** Documents untouched this long while a stage is pending are checked by the sweeper. */
const STALE_MS = 60_000;

type MaintenanceJob = { kind: 'sweep' } | { kind: 'retention' } | { kind: 'retrain'; orgId: string; environment: Environment };

/**
 * The sweeper: a document can never stay in processing forever. Any document whose pending
 * stage has no live job (lost in a Redis restart, or a crash between commit and enqueue) is
 * queued again under its deterministic job id.
 */
export async function sweep(deps: Deps, staleMs = STALE_MS): Promise<number> {
  const rows = await deps.documents.docs.stalePending(staleMs, 500);
  let requeued = 0;
  for (const doc of rows) {
    const stage = doc.pipeline.current!;
    const job = await deps.queues.get(stage).getJob(stageJobId(stage, doc.id, doc.version));
    const state = job ? await job.getState() : 'missing';
    if (state === 'active' || state === 'waiting' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') continue;
    if (state === 'failed') {
      await deps.documents.runner.fail(stage, { documentId: doc.id, version: doc.version }, 'STAGE_FAILED', job?.failedReason ?? 'stage failed');
      continue;
    }
    if (job) await job.remove().catch(() => undefined);
    await enqueueStage(deps.queues, stage, doc);
    requeued++;
  }
  if (requeued) deps.logger.warn({ requeued }, 'sweeper re-queued documents whose jobs had vanished');
  return requeued;
}

/** Deletes documents older than their project's retention_days, with files and events. */
export async function applyRetention(deps: Deps): Promise<number> {
  const rows = await deps.documents.docs.pastRetention(1000);
  if (rows.length === 0) return 0;
  const n = await deps.documents.service.deleteMany(rows);
  deps.logger.info({ deleted: n }, 'retention deleted expired documents');
  return n;
}

/** Files nothing refers to are left this long before the sweep removes them. */
const ORPHAN_FILE_GRACE_MS = 60 * 60_000;

/**
 * Removes stored files no document refers to (left by a crash between storing an upload and
 * committing its row, or by a removal that failed) and stale temporary files. Files an intake
 * holds are never touched, whatever their age. Runs with the daily retention job.
 */
export async function sweepOrphanFiles(deps: Deps, graceMs = ORPHAN_FILE_GRACE_MS): Promise<{ removed: number; temporary: number }> {
  const res = await deps.blobs.sweep({ olderThanMs: graceMs, inUse: (keys) => deps.documents.docs.storageKeysInUse(keys) });
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
  /** Sweeper period, ms. Default 30000. */
  sweepIntervalMs?: number;
  /** How long a pending stage may sit untouched before the sweeper checks its job, ms. Default 60000. */
  staleMs?: number;
  /** How often the schedulers are upserted again, ms. Default 60000. */
  reassertIntervalMs?: number;
}

export interface RunningMaintenance {
  worker: Worker;
  /** Stops the timers (the worker is closed by the caller with the others). */
  stopTimers(): void;
}

/** A sweeper pass taking longer than this frees its lock for the next one. */
const SWEEP_LOCK_MS = 5 * 60_000;

export async function startMaintenance(deps: Deps, opts: MaintenanceOptions): Promise<RunningMaintenance> {
  const q = deps.queues.get('maintenance');
  const sweepEveryMs = opts.sweepIntervalMs ?? 30_000;
  const staleMs = opts.staleMs ?? STALE_MS;
  const sweepOnce = () => sweepUnderLock(deps.redis, deps.keys.lock('sweep'), SWEEP_LOCK_MS, () => sweep(deps, staleMs));
  const timers = opts.schedulers
    ? await startMaintenanceTimers({ queue: q, redis: deps.redis, logger: deps.logger, sweepEveryMs, reassertEveryMs: opts.reassertIntervalMs ?? 60_000, sweepOnce })
    : undefined;
  deps.documents.onConfirmed((scope) => {
    // One retrain per organization at a time; corrections arriving meanwhile join the next one.
    void q.add('retrain', { kind: 'retrain', orgId: scope.orgId, environment: scope.environment }, {
      jobId: `retrain-${scope.orgId}-${scope.environment}`, delay: 5_000, removeOnComplete: true, removeOnFail: true,
    }).catch((err) => deps.logger.warn({ err }, 'could not queue classifier retraining'));
  });
  const worker = new Worker<MaintenanceJob>('maintenance', async (job: Job<MaintenanceJob>) => {
    const d = job.data;
    if (d.kind === 'sweep') return sweepOnce();
    if (d.kind === 'retention') {
      const deleted = await applyRetention(deps);
      await sweepOrphanFiles(deps);
      return deleted;
    }
    if (d.kind === 'retrain') return deps.documents.classifier.retrain({ orgId: d.orgId, environment: d.environment });
    return null;
  }, { connection: deps.queues.workerConnection(), prefix: deps.queues.prefix, concurrency: 1 });
  worker.on('error', (err) => deps.logger.warn({ err }, 'maintenance worker error'));
  return { worker, stopTimers: () => timers?.stop() };
}
