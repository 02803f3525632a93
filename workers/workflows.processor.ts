// BullMQ worker for the `workflows` queue: run jobs advance their run as far as it goes (a run
// that must wait goes back to delayed under the same job id), tick jobs start scheduled runs.
// A worker that dies mid-run loses the job's lock (30 s by default) and the run resumes on
// another worker at its first unfinished step.
import { DelayedError, type Job } from 'bullmq';
import type { WorkflowWorkerDeps } from '../src/modules/workflows/index.js';
import { WORKFLOWS_QUEUE, type WorkflowJob } from '../src/modules/workflows/jobs.js';
import { startQueueWorker, startScheduledRole } from './scheduled-role.js';

/**
 * The `workflows` worker role: the worker, the sweeper on a timer and (with `schedulers`) the
 * re-assertion of the schedule triggers. `concurrency`: runs in parallel (they mostly wait).
 */
export async function startWorkflowWorkers(
  deps: WorkflowWorkerDeps,
  o: { concurrency: number; schedulers?: boolean },
): Promise<{ close(timeoutMs?: number): Promise<void> }> {
  const worker = startQueueWorker<WorkflowJob>(
    WORKFLOWS_QUEUE,
    async (job: Job<WorkflowJob>, token?: string) => {
      if (job.data.kind === 'tick') return deps.schedules.tick(job);
      const res = await deps.runner.advance(job.data.runId);
      if (res.kind === 'wait') {
        await job.moveToDelayed(res.until.getTime(), token);
        throw new DelayedError();
      }
      return res.kind === 'done' ? res.status : res.kind;
    },
    {
      connection: deps.queues.workerConnection(),
      prefix: deps.queues.prefix,
      concurrency: o.concurrency,
      lockDurationMs: deps.options.lockDurationMs ?? 30_000,
      stalledIntervalMs: deps.options.stalledIntervalMs ?? 30_000,
      // A job whose worker died twice while running it is not handed out a third time: the
      // sweeper fails its run (RUN_CRASHED) instead of feeding it to a crash loop.
      maxStalledCount: 1,
      logger: deps.logger,
      label: 'workflow',
    },
  );
  return startScheduledRole(deps, worker, {
    schedulers: o.schedulers,
    sweepLock: 'workflow-sweep',
    sweepLockMs: 5 * 60_000,
    sweepIntervalMs: 30_000,
    label: 'workflow',
  });
}
