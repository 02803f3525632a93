// An execution never hangs and old ones do not pile up. Executions left queued or running
// without a live job (lost with Redis data, a crash between commit and enqueue, a job whose
// attempts ran out on stalls) are queued again, or failed once their job has given up; a stalled
// job itself is re-run by BullMQ's stalled-job check. Executions older than their report's
// retention are deleted with their result files.
import type { BlobStore } from '../../storage/blob-store.js';
import type { Logger } from '../../lib/logger.js';
import type { ExecutionsRepository } from './executions.repository.js';
import { executionJobId, type ReportJobs } from './jobs.js';
import type { ReportRunner } from './runner.js';

const LIVE = new Set(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children']);

export async function sweepExecutions(
  deps: { executions: ExecutionsRepository; jobs: ReportJobs; runner: ReportRunner; logger: Logger },
  staleMs: number,
): Promise<{ requeued: number; failed: number }> {
  let requeued = 0;
  let failed = 0;
  for (const e of await deps.executions.open(new Date(Date.now() - staleMs), 500)) {
    const job = await deps.jobs.queue().getJob(executionJobId(e.id));
    const state = job ? await job.getState() : 'missing';
    if (LIVE.has(state)) continue;
    if (state === 'failed' && job) {
      await deps.runner.finishFailed(
        e.id,
        new Error(`the execution's job failed: ${job.failedReason ?? 'unknown error'}`),
      );
      await job.remove().catch(() => undefined);
      failed++;
      continue;
    }
    if (job) await job.remove().catch(() => undefined);
    await deps.jobs.enqueue(e.id);
    requeued++;
  }
  if (requeued || failed)
    deps.logger.warn({ requeued, failed }, 'report sweep re-queued or failed executions whose jobs had vanished');
  return { requeued, failed };
}

/** Deletes executions past their report's retention and the files no other execution uses. */
export async function deleteExpired(
  deps: { executions: ExecutionsRepository; files: BlobStore; logger: Logger },
  now = new Date(),
): Promise<{ executions: number; files: number }> {
  let executions = 0;
  let files = 0;
  for (;;) {
    const { ids, fileKeys } = await deps.executions.deleteExpired(now, 1000);
    executions += ids.length;
    for (const key of fileKeys)
      if (await deps.files.removeIfUnused(key, (keys) => deps.executions.fileKeysInUse(keys))) files++;
    if (ids.length < 1000) break;
  }
  if (executions) deps.logger.info({ executions, files }, 'report executions past their retention deleted');
  return { executions, files };
}
