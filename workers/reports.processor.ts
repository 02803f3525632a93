// BullMQ worker for the `reports` queue: run jobs compute an execution into its result file,
// tick jobs claim a schedule's due occurrence. A worker that dies mid-run loses the job's lock;
// BullMQ's stalled-job check hands it to another worker, which runs the execution again from
// the start (a run writes nothing but its result file until it commits). The sweep, on a timer
// under a Redis lock, catches what that cannot (jobs lost with Redis data, ticks that never came)
// and deletes executions past their retention.
import type { Job } from 'bullmq';
import type { ReportWorkerDeps } from '../src/modules/reports/index.js';
import { EXECUTION_ATTEMPTS, REPORTS_QUEUE, type ReportJob } from '../src/modules/reports/jobs.js';
import { startQueueWorker, startScheduledRole } from './scheduled-role.js';

/**
 * The `reports` worker role: the worker, the sweep on a timer and (with `schedulers`) the
 * re-assertion of the report schedulers.
 */
export async function startReportWorkers(
  deps: ReportWorkerDeps,
  o: { concurrency: number; schedulers?: boolean },
): Promise<{ close(timeoutMs?: number): Promise<void> }> {
  const worker = startQueueWorker<ReportJob>(
    REPORTS_QUEUE,
    async (job: Job<ReportJob>) => {
      if (job.data.kind === 'tick') {
        const r = await deps.schedules.tick(job);
        return r?.executionId ?? null;
      }
      // The last attempt records a failure (status failed, report.completed sent) instead of throwing.
      return deps.runner.run(job.data.executionId, {
        finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? EXECUTION_ATTEMPTS),
      });
    },
    {
      connection: deps.queues.workerConnection(),
      prefix: deps.queues.prefix,
      concurrency: o.concurrency,
      lockDurationMs: deps.options.lockDurationMs ?? 60_000,
      stalledIntervalMs: deps.options.stalledIntervalMs ?? 30_000,
      maxStalledCount: 2,
      logger: deps.logger,
      label: 'report',
    },
  );
  return startScheduledRole(deps, worker, {
    schedulers: o.schedulers,
    sweepLock: 'report-sweep',
    sweepLockMs: 10 * 60_000,
    sweepIntervalMs: 60_000,
    label: 'report',
  });
}
