// A run never hangs: runs left queued or running without a live job (lost with Redis data, a
// crash between commit and enqueue, a job that exhausted its attempts) are queued again or
// failed, and runs past their deadline are failed.
import type { Logger } from '../../lib/logger.js';
import type { Runner } from './engine/runner.js';
import { runJobId, type RunProducer } from './jobs.js';
import type { RunsRepository } from './runs.repository.js';

const LIVE = new Set(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children']);

export async function sweepRuns(
  deps: { runs: RunsRepository; producer: RunProducer; runner: Runner; logger: Logger },
  staleMs: number,
): Promise<{ requeued: number; failed: number }> {
  let requeued = 0;
  let failed = 0;
  for (const r of await deps.runs.openRuns(staleMs)) {
    const job = await deps.producer.queue().getJob(runJobId(r.id));
    const state = job ? await job.getState() : 'missing';
    if (r.deadline_at && r.deadline_at.getTime() < Date.now() && state !== 'active') {
      const run = await deps.runs.getById(r.id);
      if (run && (run.status === 'queued' || run.status === 'running')) {
        await deps.runner.failRun(run, 'RUN_TIMEOUT', 'the run exceeded its timeout');
        failed++;
      }
      continue;
    }
    if (LIVE.has(state)) continue;
    const stalledOut = state === 'failed' && /stalled/i.test(job?.failedReason ?? '');
    if (state === 'failed' && job && (stalledOut || job.attemptsMade >= (job.opts.attempts ?? 1))) {
      const run = await deps.runs.getById(r.id);
      if (run)
        await deps.runner.failRun(
          run,
          'RUN_CRASHED',
          stalledOut
            ? 'the worker running this run stopped twice while running it (a crash, or a blocked event loop); it is not retried again'
            : `the run's job failed: ${job.failedReason ?? 'unknown error'}`,
        );
      await job.remove().catch(() => undefined);
      failed++;
      continue;
    }
    if (job) await job.remove().catch(() => undefined);
    const delay = r.resume_at ? r.resume_at.getTime() - Date.now() : 0;
    await deps.producer.enqueue(r.id, delay);
    requeued++;
  }
  if (requeued || failed)
    deps.logger.warn({ requeued, failed }, 'workflow sweeper re-queued or failed runs whose jobs had vanished');
  return { requeued, failed };
}
