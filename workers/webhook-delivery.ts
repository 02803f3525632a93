// BullMQ worker for the `webhooks` queue. A job is (delivery id, dispatch number); everything
// else — URL, secrets, payload, what happened before — is read from the database by the executor.
import { DelayedError, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from '../src/lib/logger.js';
import { WEBHOOKS_QUEUE } from '../src/modules/webhooks/dispatcher.js';
import type { DeliveryExecutor } from '../src/modules/webhooks/delivery.js';
import type { DeliveryJob } from '../src/modules/webhooks/webhooks.types.js';

/** Options of {@link startDeliveryWorker}. */
export interface DeliveryWorkerOptions {
  connection: ConnectionOptions;
  /** BullMQ key prefix of this install. */
  prefix: string;
  /** Parallel deliveries in this process; they wait on the network, so ~50 is reasonable. */
  concurrency: number;
  /**
   * Job lock, ms. Default 30000. A crashed worker's job is re-run after the lock expires, so this
   * bounds how late a delivery interrupted by a crash is retried. Must exceed the request timeout.
   */
  lockDurationMs?: number;
  /** How often this worker looks for stalled jobs, ms. Default 30000 (BullMQ's). */
  stalledIntervalMs?: number;
  logger: Logger;
}

export interface RunningWorker {
  /** Stops taking jobs and waits up to `timeoutMs` (default 10000) for running ones, then force-closes. */
  close(timeoutMs?: number): Promise<void>;
}

export function startDeliveryWorker(executor: DeliveryExecutor, opts: DeliveryWorkerOptions): RunningWorker {
  const worker = new Worker<DeliveryJob>(WEBHOOKS_QUEUE, async (job, token) => {
    const result = await executor.attempt(job.data);
    if (typeof result === 'string') return result;
    // Put off (its endpoint or organization is at its limit): back to delayed, same job id, no
    // attempt counted; the slot goes to someone else's delivery.
    await job.moveToDelayed(Math.ceil(result.until), token);
    throw new DelayedError();
  }, {
    connection: opts.connection,
    prefix: opts.prefix,
    concurrency: opts.concurrency,
    lockDuration: opts.lockDurationMs ?? 30_000,
    stalledInterval: opts.stalledIntervalMs ?? 30_000,
    // A job that keeps stalling goes to failed (and is removed); the sweep then re-adds it.
    maxStalledCount: 3,
  });
  worker.on('error', (err) => opts.logger.error({ err }, 'webhook worker error'));
  worker.on('failed', (job, err) => opts.logger.warn({ err, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'webhook job failed'));
  return {
    async close(timeoutMs = 10_000) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs); });
      const result = await Promise.race([worker.close().then(() => 'closed' as const), timedOut]);
      clearTimeout(timer);
      // Jobs still running stay locked and are re-run elsewhere once the lock expires.
      if (result === 'timeout') await worker.close(true);
    },
  };
}
