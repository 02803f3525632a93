// BullMQ worker for the `workflows` queue: run jobs advance their run as far as it goes (a run
// that must wait goes back to delayed under the same job id), tick jobs start scheduled runs.
import { DelayedError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Logger } from '../src/lib/logger.js';
import type { WorkflowWorkerDeps } from '../src/modules/workflows/index.js';
import type { Runner } from '../src/modules/workflows/engine/runner.js';
import { WORKFLOWS_QUEUE, type WorkflowJob } from '../src/modules/workflows/jobs.js';
import type { WorkflowSchedules } from '../src/modules/workflows/schedules.js';
import { closeWorker } from './close.js';
import { startLockedSweep } from './locked-sweep.js';

export interface WorkflowWorkerOptions {
  connection: ConnectionOptions;
  prefix: string;
  concurrency: number;
  /**
   * Job lock, ms. Default 30000. A worker that dies mid-run loses the lock after this long and
   * the run resumes on another worker at its first unfinished step.
   */
  lockDurationMs?: number;
  /** Stalled-job check period, ms. Default 30000. */
  stalledIntervalMs?: number;
  logger: Logger;
}

export function startWorkflowWorker(h: { runner: Runner; schedules: WorkflowSchedules }, o: WorkflowWorkerOptions) {
  const worker = new Worker<WorkflowJob>(
    WORKFLOWS_QUEUE,
    async (job: Job<WorkflowJob>, token?: string) => {
      if (job.data.kind === 'tick') return h.schedules.tick(job);
      const res = await h.runner.advance(job.data.runId);
      if (res.kind === 'wait') {
        await job.moveToDelayed(res.until.getTime(), token);
        throw new DelayedError();
      }
      return res.kind === 'done' ? res.status : res.kind;
    },
    {
      connection: o.connection,
      prefix: o.prefix,
      concurrency: o.concurrency,
      lockDuration: o.lockDurationMs ?? 30_000,
      stalledInterval: o.stalledIntervalMs ?? 30_000,
      // A job whose worker died twice while running it is not handed out a third time: the
      // sweeper fails its run (RUN_CRASHED) instead of feeding it to a crash loop.
      maxStalledCount: 1,
    },
  );
  worker.on('error', (err) => o.logger.warn({ err }, 'workflow worker error'));
  worker.on('failed', (job, err) => o.logger.warn({ err, jobId: job?.id }, 'workflow job failed'));
  return worker;
}

/**
 * The `workflows` worker role: the worker, the sweeper on a timer and (with `schedulers`) the
 * re-assertion of the schedule triggers. `concurrency`: runs in parallel (they mostly wait).
 */
export async function startWorkflowWorkers(
  deps: WorkflowWorkerDeps,
  o: { concurrency: number; schedulers?: boolean },
): Promise<{ close(timeoutMs?: number): Promise<void> }> {
  const opts = deps.options;
  const worker = startWorkflowWorker(
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
    lockKey: deps.keys.lock('workflow-sweep'),
    lockMs: 5 * 60_000,
    periodMs: opts.sweepIntervalMs ?? 30_000,
    sweep: deps.sweep,
    logger: deps.logger,
    name: 'workflow sweep',
  });
  return {
    async close(timeoutMs = 20_000) {
      sweeper.stop();
      keeper?.stop();
      await closeWorker(worker, timeoutMs);
    },
  };
}
