// An execution never hangs and old ones do not pile up. Executions left queued or running
// without a live job (lost with Redis data, a crash between commit and enqueue, a job whose
// attempts ran out on stalls) are queued again, or failed once their job has given up; a stalled
// job itself is re-run by BullMQ's stalled-job check. Executions older than their report's
// retention are deleted with their result files.
import { sweepOpenRecords } from '../../jobs/open-records.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Logger } from '../../lib/logger.js';
import type { ExecutionsRepository } from './executions.repository.js';
import { executionJobId, type ReportJobs } from './jobs.js';
import type { ReportRunner } from './runner.js';

export async function sweepExecutions(
  deps: { executions: ExecutionsRepository; jobs: ReportJobs; runner: ReportRunner; logger: Logger },
  staleMs: number,
): Promise<{ requeued: number; failed: number }> {
  const open = await deps.executions.open(new Date(Date.now() - staleMs), 500);
  const res = await sweepOpenRecords(open, {
    queue: deps.jobs.queue(),
    jobIdOf: (e) => executionJobId(e.id),
    // A failed execution job has used its attempts (the last one records the failure itself).
    gaveUp: () => true,
    fail: (e, job) =>
      deps.runner.finishFailed(e.id, new Error(`the execution's job failed: ${job.failedReason ?? 'unknown error'}`)),
    requeue: (e) => deps.jobs.enqueue(e.id),
  });
  if (res.requeued || res.failed)
    deps.logger.warn(res, 'report sweep re-queued or failed executions whose jobs had vanished');
  return res;
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
