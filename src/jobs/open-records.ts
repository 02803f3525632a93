// What the report and workflow sweeps share: a record (execution, run) that is still open in the
// database needs a live job on its queue. One whose job vanished (lost with Redis data, a crash
// between commit and enqueue) is queued again; one whose job has given up is failed.
import type { Job, Queue } from 'bullmq';

/** Job states in which the job will still run (or is running). */
export const LIVE_JOB_STATES: ReadonlySet<string> = new Set([
  'active',
  'waiting',
  'delayed',
  'prioritized',
  'waiting-children',
]);

export interface OpenRecordsSweep<R> {
  queue: Queue;
  jobIdOf(record: R): string;
  /**
   * Looked at first, whatever the job's state: returns `failed` when it settled the record
   * itself (a run past its deadline), `skip` to leave it, undefined to go on.
   */
  settle?(record: R, state: string): Promise<'failed' | 'skip' | undefined>;
  /** True when the job in state `failed` will not be retried: its record is then failed. */
  gaveUp(job: Job): boolean;
  fail(record: R, job: Job): Promise<unknown>;
  requeue(record: R): Promise<unknown>;
}

export async function sweepOpenRecords<R>(
  records: readonly R[],
  s: OpenRecordsSweep<R>,
): Promise<{ requeued: number; failed: number }> {
  let requeued = 0;
  let failed = 0;
  for (const r of records) {
    const { job, state } = await jobWithState(s.queue, s.jobIdOf(r));
    if (state === 'changing') continue;
    const settled = await s.settle?.(r, state);
    if (settled === 'failed') failed++;
    if (settled) continue;
    if (LIVE_JOB_STATES.has(state)) continue;
    if (state === 'failed' && job && s.gaveUp(job)) {
      await s.fail(r, job);
      await job.remove().catch(() => undefined);
      failed++;
      continue;
    }
    // A finished job under the record's id would make the new one a no-op: it goes first.
    if (job) await job.remove().catch(() => undefined);
    await s.requeue(r);
    requeued++;
  }
  return { requeued, failed };
}

/**
 * A job's state, then the job itself, and for a settled state the state once more. A job read
 * before its state can fail in between, and that stale copy (no failed reason, attempts not yet
 * counted) would pass for a job that may still be retried: a sweep queued a job that had given up
 * a second time. A job that leaves a settled state between the reads (a failed job retried by an
 * operator, or removed) comes back as 'changing', to be looked at on the next pass.
 * 'missing' when no queue list holds the job; `job` is then the data Redis may still keep under
 * its id, which must be removed before the id can be queued again.
 */
export async function jobWithState(queue: Queue, id: string): Promise<{ job: Job | undefined; state: string }> {
  const state = await queue.getJobState(id);
  const job = await queue.getJob(id);
  if (state === 'unknown') return { job, state: 'missing' };
  if (!LIVE_JOB_STATES.has(state) && (await queue.getJobState(id)) !== state) return { job, state: 'changing' };
  return { job, state };
}

/** Removes the job schedulers named `prefix…` that are not in `keep`; returns how many. */
export async function removeStaleSchedulers(queue: Queue, prefix: string, keep: ReadonlySet<string>): Promise<number> {
  let removed = 0;
  for (const s of await queue.getJobSchedulers(0, -1)) {
    if (s.key.startsWith(prefix) && !keep.has(s.key)) {
      await queue.removeJobScheduler(s.key);
      removed++;
    }
  }
  return removed;
}
