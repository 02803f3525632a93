// Puts delivery jobs on the `webhooks` queue. Job ids are deterministic (dlv-<delivery>-<dispatch
// number>), so enqueueing the same dispatch twice — the relay re-running after a crash, the sweep
// re-adding a job it cannot see — leaves one job.
import type { Redis } from 'ioredis';
import type { Queues } from '../../jobs/queues.js';
import type { DeliveryJob } from './webhooks.types.js';

export const WEBHOOKS_QUEUE = 'webhooks' as const;
export const DELIVER_JOB = 'deliver';

export interface ScheduledDelivery extends DeliveryJob {
  /** Delay before the attempt, ms (retries). Default 0. */
  delayMs?: number;
}

export interface DeliveryDispatcher {
  dispatch(jobs: readonly ScheduledDelivery[]): Promise<void>;
  /**
   * Enqueues only the jobs that do not exist (waiting, delayed or running) — the sweep's path, so
   * that a large backlog is not re-added over and over. Returns how many were enqueued.
   */
  redispatchMissing?(jobs: readonly ScheduledDelivery[]): Promise<number>;
}

export function deliveryJobId(job: DeliveryJob): string {
  return `dlv-${job.deliveryId}-${job.seq}`;
}

const CHUNK = 1000;

export function createQueueDispatcher(queues: Queues, redis?: Redis): DeliveryDispatcher {
  const dispatcher: DeliveryDispatcher = {
    async redispatchMissing(jobs) {
      if (jobs.length === 0) return 0;
      let missing = jobs;
      if (redis) {
        // A job's hash lives at the queue key + job id while it waits, is delayed or runs; finished
        // jobs are removed at once (see below), so "no key" means "no job".
        const queue = queues.get(WEBHOOKS_QUEUE);
        const pipe = redis.pipeline();
        for (const j of jobs) pipe.exists(queue.toKey(deliveryJobId(j)));
        const res = (await pipe.exec()) ?? [];
        missing = jobs.filter((_, i) => res[i]?.[1] === 0);
      }
      await dispatcher.dispatch(missing);
      return missing.length;
    },
    async dispatch(jobs) {
      const queue = queues.get(WEBHOOKS_QUEUE);
      for (let i = 0; i < jobs.length; i += CHUNK) {
        await queue.addBulk(
          jobs.slice(i, i + CHUNK).map((j) => ({
            name: DELIVER_JOB,
            data: { deliveryId: j.deliveryId, seq: j.seq } satisfies DeliveryJob,
            opts: {
              jobId: deliveryJobId(j),
              delay: j.delayMs && j.delayMs > 0 ? Math.round(j.delayMs) : undefined,
              // BullMQ retries cover infrastructure errors only (database down); HTTP outcomes are
              // recorded and scheduled by the handler itself.
              attempts: 8,
              backoff: { type: 'exponential', delay: 1000 },
              // Finished ids are freed at once: the delivery row keeps the history, and the sweep must
              // be able to re-add a job whose earlier copy died without recording anything.
              removeOnComplete: true,
              removeOnFail: true,
            },
          })),
        );
      }
    },
  };
  return dispatcher;
}
