// What the report and workflow worker roles share: a BullMQ worker for the role's queue (run jobs
// and schedule ticks), the role's sweep on a timer under a Redis lock, and (with `schedulers`)
// the re-assertion of its job schedulers; one close for all three.
import { Worker, type ConnectionOptions, type Job, type Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Queues } from '../src/jobs/queues.js';
import type { Logger } from '../src/lib/logger.js';
import { closeWorker } from './close.js';
import { startLockedSweep } from './locked-sweep.js';

export interface QueueWorkerOptions {
  connection: ConnectionOptions;
  prefix: string;
  concurrency: number;
  /** Job lock, ms: a worker that dies mid-job loses the job after this long. */
  lockDurationMs: number;
  /** Stalled-job check period, ms. */
  stalledIntervalMs: number;
  /** How often a job may stall before BullMQ fails it instead of handing it out again. */
  maxStalledCount: number;
  logger: Logger;
  /** Named in log lines, e.g. "report". */
  label: string;
}

export function startQueueWorker<T>(queue: string, processor: Processor<T>, o: QueueWorkerOptions): Worker<T> {
  const worker = new Worker<T>(queue, processor, {
    connection: o.connection,
    prefix: o.prefix,
    concurrency: o.concurrency,
    lockDuration: o.lockDurationMs,
    stalledInterval: o.stalledIntervalMs,
    maxStalledCount: o.maxStalledCount,
  });
  worker.on('error', (err) => o.logger.warn({ err }, `${o.label} worker error`));
  worker.on('failed', (job: Job<T> | undefined, err) =>
    o.logger.warn({ err, jobId: job?.id }, `${o.label} job failed`),
  );
  return worker;
}

/** What a scheduled role's module hands its worker process. */
export interface ScheduledRoleDeps {
  queues: Queues;
  redis: Redis;
  logger: Logger;
  keys: { lock(name: string): string };
  schedules: { keepAsserted(redis: Redis, everyMs: number): Promise<{ stop(): void }> };
  sweep(): Promise<unknown>;
  options: { reassertIntervalMs?: number; sweepIntervalMs?: number };
}

export interface ScheduledRoleOptions {
  schedulers?: boolean;
  /** The sweep's lock name and how long one pass may hold it. */
  sweepLock: string;
  sweepLockMs: number;
  sweepIntervalMs: number;
  /** Named in log lines, e.g. "report". */
  label: string;
}

/** Starts the sweep and (optionally) the scheduler re-assertion around `worker`. */
export async function startScheduledRole(
  deps: ScheduledRoleDeps,
  worker: Worker,
  o: ScheduledRoleOptions,
): Promise<{ close(timeoutMs?: number): Promise<void> }> {
  const keeper = o.schedulers
    ? await deps.schedules.keepAsserted(deps.redis, deps.options.reassertIntervalMs ?? 60_000)
    : undefined;
  const sweeper = startLockedSweep({
    redis: deps.redis,
    lockKey: deps.keys.lock(o.sweepLock),
    lockMs: o.sweepLockMs,
    periodMs: deps.options.sweepIntervalMs ?? o.sweepIntervalMs,
    sweep: deps.sweep,
    logger: deps.logger,
    name: `${o.label} sweep`,
  });
  return {
    async close(timeoutMs = 20_000) {
      sweeper.stop();
      keeper?.stop();
      await closeWorker(worker, timeoutMs);
    },
  };
}
