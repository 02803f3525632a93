// Puts delivery jobs on the `webhooks` queue. Job ids are deterministic (dlv-<delivery>-<dispatch
// number>), so enqueueing the same dispatch twice — the relay re-running after a crash, the sweep
// re-adding a job it cannot see — leaves one job.
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
}

export function deliveryJobId(job: DeliveryJob): string {
  return `dlv-${job.deliveryId}-${job.seq}`;
}

const CHUNK = 1000;

export function createQueueDispatcher(queues: Queues): DeliveryDispatcher {
  return {
    async dispatch(jobs) {
      const queue = queues.get(WEBHOOKS_QUEUE);
      for (let i = 0; i < jobs.length; i += CHUNK) {
        await queue.addBulk(jobs.slice(i, i + CHUNK).map((j) => ({
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
        })));
      }
    },
  };
}
