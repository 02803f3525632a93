// BullMQ worker for the `reports` queue: run jobs compute an execution into its result file,
// tick jobs claim a schedule's due occurrence. A worker that dies mid-run loses the job's lock;
// BullMQ's stalled-job check hands it to another worker, which runs the execution again from
// the start (a run writes nothing but its result file until it commits). The sweep, on a timer
// under a Redis lock, catches what that cannot (jobs lost with Redis data, ticks that never came)
// and deletes executions past their retention.
import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from '../src/lib/logger.js';
import type { ReportWorkerDeps } from '../src/modules/reports/index.js';
import { EXECUTION_ATTEMPTS, REPORTS_QUEUE, type ReportJob } from '../src/modules/reports/jobs.js';
import type { ReportRunner } from '../src/modules/reports/runner.js';
import type { ReportSchedules } from '../src/modules/reports/schedules.js';
import { closeWorker } from './close.js';
import { startLockedSweep } from './locked-sweep.js';

export interface ReportWorkerOptions {
  connection: ConnectionOptions;
  prefix: string;
  concurrency: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  logger: Logger;
}

export function startReportWorker(h: { runner: ReportRunner; schedules: ReportSchedules }, o: ReportWorkerOptions) {
  const worker = new Worker<ReportJob>(
    REPORTS_QUEUE,
    async (job: Job<ReportJob>) => {
      if (job.data.kind === 'tick') {
        const r = await h.schedules.tick(job);
        return r?.executionId ?? null;
      }
      // The last attempt records a failure (status failed, report.completed sent) instead of throwing.
      return h.runner.run(job.data.executionId, {
        finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? EXECUTION_ATTEMPTS),
      });
    },
    {
      connection: o.connection,
      prefix: o.prefix,
      concurrency: o.concurrency,
      lockDuration: o.lockDurationMs ?? 60_000,
      stalledInterval: o.stalledIntervalMs ?? 30_000,
      maxStalledCount: 2,
    },
  );
  worker.on('error', (err) => o.logger.warn({ err }, 'report worker error'));
  worker.on('failed', (job, err) => o.logger.warn({ err, jobId: job?.id }, 'report job failed'));
  return worker;
}

/**
 * The `reports` worker role: the worker, the sweep on a timer and (with `schedulers`) the
 * re-assertion of the report schedulers.
 */
export async function startReportWorkers(
  deps: ReportWorkerDeps,
  o: { concurrency: number; schedulers?: boolean },
): Promise<{ close(timeoutMs?: number): Promise<void> }> {
  const opts = deps.options;
  const worker = startReportWorker(
    { runner: deps.runner, schedules: deps.schedules },
    {
      connection: deps.queues.workerConnection(),
      prefix: deps.queues.prefix,
      concurrency: o.concurrency,
      lockDurationMs: opts.lockDurationMs,
      stalledIntervalMs: opts.stalledIntervalMs,
      logger: deps.logger,
    },
  );
  const keeper = o.schedulers
    ? await deps.schedules.keepAsserted(deps.redis, opts.reassertIntervalMs ?? 60_000)
    : undefined;
  const sweeper = startLockedSweep({
    redis: deps.redis,
    lockKey: deps.keys.lock('report-sweep'),
    lockMs: 10 * 60_000,
    periodMs: opts.sweepIntervalMs ?? 60_000,
    sweep: deps.sweep,
    logger: deps.logger,
    name: 'report sweep',
  });
  return {
    async close(timeoutMs = 20_000) {
      sweeper.stop();
      keeper?.stop();
      await closeWorker(worker, timeoutMs);
    },
  };
}
