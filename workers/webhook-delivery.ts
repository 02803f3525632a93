// The `webhooks` worker role: the BullMQ worker of the `webhooks` queue and, beside it, the sweep
// that re-adds jobs of overdue deliveries. Deliveries are created by the outbox relay (the
// `events` role) through the webhooks module's consumer. A job is (delivery id, dispatch number); everything else — URL, secrets, payload,
// what happened before — is read from the database by the executor.
import { DelayedError, Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from '../src/lib/logger.js';
import type { Metrics } from '../src/modules/metrics/index.js';
import { createSafeHttpClient } from '../src/lib/http-client/index.js';
import { createDeliveryExecutor, type DeliveryExecutor } from '../src/modules/webhooks/delivery.js';
import { createDeliveryStore } from '../src/modules/webhooks/delivery-store.repository.js';
import { WEBHOOKS_QUEUE } from '../src/modules/webhooks/dispatcher.js';
import { createEndpointGate } from '../src/modules/webhooks/endpoint-gate.js';
import type { WebhookWorkerDeps } from '../src/modules/webhooks/index.js';
import type { DeliveryJob } from '../src/modules/webhooks/webhooks.types.js';
import { closeWorker } from './close.js';

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
  /** Counts jobs by outcome (delivered, retry, failed, gone, deferred, …). */
  metrics?: Pick<Metrics, 'webhookDeliveries'>;
}

export interface RunningWorker {
  /** Stops taking jobs and waits up to `timeoutMs` (default 10000) for running ones, then force-closes. */
  close(timeoutMs?: number): Promise<void>;
}

export function startDeliveryWorker(executor: DeliveryExecutor, opts: DeliveryWorkerOptions): RunningWorker {
  const worker = new Worker<DeliveryJob>(
    WEBHOOKS_QUEUE,
    async (job, token) => {
      const result = await executor.attempt(job.data);
      opts.metrics?.webhookDeliveries.inc({ outcome: typeof result === 'string' ? result : 'deferred' });
      if (typeof result === 'string') return result;
      // Put off (its endpoint or organization is at its limit): back to delayed, same job id, no
      // attempt counted; the slot goes to someone else's delivery.
      await job.moveToDelayed(Math.ceil(result.until), token);
      throw new DelayedError();
    },
    {
      connection: opts.connection,
      prefix: opts.prefix,
      concurrency: opts.concurrency,
      lockDuration: opts.lockDurationMs ?? 30_000,
      stalledInterval: opts.stalledIntervalMs ?? 30_000,
      // A job that keeps stalling goes to failed (and is removed); the sweep then re-adds it.
      maxStalledCount: 3,
    },
  );
  worker.on('error', (err) => opts.logger.error({ err }, 'webhook worker error'));
  worker.on('failed', (job, err) =>
    opts.logger.warn({ err, jobId: job?.id, attemptsMade: job?.attemptsMade }, 'webhook job failed'),
  );
  return { close: (timeoutMs = 10_000) => closeWorker(worker, timeoutMs) };
}

export interface StartWebhookWorkersOptions {
  /** Parallel deliveries in this process (IO-bound: ~50). */
  concurrency: number;
  metrics?: Pick<Metrics, 'webhookDeliveries'>;
}

/**
 * Starts the delivery worker and its sweep; `close` stops them, waiting up to `timeoutMs` for
 * attempts in flight.
 */
export async function startWebhookWorkers(
  deps: WebhookWorkerDeps,
  { concurrency, metrics }: StartWebhookWorkersOptions,
): Promise<RunningWorker> {
  const opts = deps.options;
  const http = createSafeHttpClient({
    allow: deps.allow,
    resolver: opts.resolver,
    timeoutMs: deps.timeoutMs,
    connectTimeoutMs: deps.connectTimeoutMs,
    // One pooled socket per concurrent delivery, kept idle between them (no reconnect churn).
    maxSocketsPerHost: Math.max(concurrency, 8),
    maxFreeSockets: Math.max(concurrency, 8),
  });
  // A dead receiver holds a slot for the whole timeout: no endpoint or organization may take
  // every slot of this process.
  const share = Math.max(1, Math.ceil(concurrency * 0.8));
  const gate =
    opts.fairness === false
      ? undefined
      : createEndpointGate({ endpointMax: share, orgMax: share, timeoutMs: deps.timeoutMs, ...opts.fairness });
  const executor = createDeliveryExecutor({
    store: createDeliveryStore(deps.db),
    http,
    dispatcher: deps.dispatcher,
    secretBox: deps.secretBox,
    allow: deps.allow,
    retryDelaysMs: deps.retryDelaysMs,
    timeoutMs: deps.timeoutMs,
    jitter: opts.jitter,
    logger: deps.logger,
    now: opts.now,
    gate,
  });
  const worker = startDeliveryWorker(executor, {
    connection: deps.queues.workerConnection(),
    prefix: deps.queues.prefix,
    concurrency,
    lockDurationMs: opts.lockDurationMs ?? Math.max(30_000, 2 * deps.timeoutMs),
    stalledIntervalMs: opts.stalledIntervalMs,
    logger: deps.logger,
    metrics,
  });
  const sweep = startDeliverySweep(deps, opts.sweepIntervalMs ?? 2000);
  return {
    async close(timeoutMs?: number) {
      await sweep.stop();
      await worker.close(timeoutMs);
      http.close();
    },
  };
}

/** Runs `deps.sweep` every `intervalMs`, one pass at a time; `stop` waits for a pass in progress. */
function startDeliverySweep(deps: WebhookWorkerDeps, intervalMs: number): { stop(): Promise<void> } {
  let pass: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (pass) return;
    pass = deps
      .sweep()
      .then(() => undefined)
      .catch((err: unknown) => deps.logger.error({ err }, 'webhook delivery sweep failed'))
      .finally(() => {
        pass = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
}
