// A run never hangs: runs left queued or running without a live job (lost with Redis data, a
// crash between commit and enqueue, a job that exhausted its attempts) are queued again or
// failed, and runs past their deadline are failed.
import type { Job } from 'bullmq';
import { sweepOpenRecords } from '../../jobs/open-records.js';
import type { Logger } from '../../lib/logger.js';
import type { Runner } from './engine/runner.js';
import { runJobId, type RunProducer } from './jobs.js';
import type { RunsRepository } from './runs.repository.js';

export async function sweepRuns(
  deps: { runs: RunsRepository; producer: RunProducer; runner: Runner; logger: Logger },
  staleMs: number,
): Promise<{ requeued: number; failed: number }> {
  const stalledOut = (job: Job) => /stalled/i.test(job.failedReason ?? '');
  const res = await sweepOpenRecords(await deps.runs.openRuns(staleMs), {
    queue: deps.producer.queue(),
    jobIdOf: (r) => runJobId(r.id),
    async settle(r, state) {
      if (!(r.deadline_at && r.deadline_at.getTime() < Date.now() && state !== 'active')) return undefined;
      const run = await deps.runs.getById(r.id);
      if (!run || (run.status !== 'queued' && run.status !== 'running')) return 'skip';
      await deps.runner.failRun(run, 'RUN_TIMEOUT', 'the run exceeded its timeout');
      return 'failed';
    },
    gaveUp: (job) => stalledOut(job) || job.attemptsMade >= (job.opts.attempts ?? 1),
    async fail(r, job) {
      const run = await deps.runs.getById(r.id);
      if (run)
        await deps.runner.failRun(
          run,
          'RUN_CRASHED',
          stalledOut(job)
            ? 'the worker running this run stopped twice while running it (a crash, or a blocked event loop); it is not retried again'
            : `the run's job failed: ${job.failedReason ?? 'unknown error'}`,
        );
    },
    requeue: (r) => deps.producer.enqueue(r.id, r.resume_at ? r.resume_at.getTime() - Date.now() : 0),
  });
  if (res.requeued || res.failed)
    deps.logger.warn(res, 'workflow sweeper re-queued or failed runs whose jobs had vanished');
  return res;
}
