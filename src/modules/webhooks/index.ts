// Wiring of the webhooks capability: subscriptions API, outbox relay (events → deliveries) and
// the delivery worker. The lead's container calls createWebhooksModule once per process.
import type { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Queues } from '../../jobs/queues.js';
import type { SecretBox } from '../../lib/crypto.js';
import type { Logger } from '../../lib/logger.js';
import { createAllowList, createSafeHttpClient, type Resolver } from '../../lib/http-client/index.js';
import { registerWebhookRoutes } from '../../http/routes/webhooks/index.js';
import { startDeliveryWorker } from '../../../workers/webhook-delivery.js';
import { startOutboxRelay, type RunningRelay } from '../../../workers/outbox-relay.js';
import { relayBatch, type OutboxConsumer } from '../events/relay.js';
import { createDeliveriesRepository } from './deliveries.repository.js';
import { createDeliveryExecutor } from './delivery.js';
import { createDeliveryStore } from './delivery-store.repository.js';
import { createDirectDeliveries, type DirectDeliveries } from './direct-delivery.js';
import { createEndpointGate, type EndpointGateOptions } from './endpoint-gate.js';
import { createQueueDispatcher } from './dispatcher.js';
import { createWebhookFanOut } from './fanout.js';
import { parseRetryDelays, type Jitter } from './schedule.js';
import { createSubscriptionsRepository } from './subscriptions.repository.js';
import { sweepOverdueDeliveries } from './sweep.js';
import { createWebhooksService, type WebhooksService } from './webhooks.service.js';

export { verifyWebhookSignature, type VerifyOptions } from './signature.js';
export type { WebhooksService } from './webhooks.service.js';

export interface WebhooksModuleDeps {
  db: Db;
  redis: Redis;
  queues: Queues;
  secretBox: SecretBox;
  config: Pick<Config, 'WEBHOOK_RETRY_DELAYS' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_ALLOWED_HOSTS' | 'REDIS_PREFIX'> & Partial<Pick<Config, 'WEBHOOK_CONNECT_TIMEOUT_MS'>>;
  logger: Logger;
}

/** Tuning and test hooks; every field is optional. */
export interface WebhooksModuleOptions {
  /** Retry-delay jitter. Default ±20 % uniform; tests pass `noJitter`. */
  jitter?: Jitter;
  /** Name resolution for outbound requests. Default: the system resolver. */
  resolver?: Resolver;
  /** Relay safety-net period, ms. Default 2000. */
  relayIntervalMs?: number;
  /** Events per relay transaction. Default 500. */
  relayBatchSize?: number;
  /** How overdue a pending delivery must be before the sweep re-adds its job, ms. Default 15000. */
  sweepGraceMs?: number;
  /** Delivery job lock, ms (bounds how late a crashed attempt is retried). Default max(30000, 2 × timeout). */
  lockDurationMs?: number;
  /** Stalled-job check period, ms. Default 30000. */
  stalledIntervalMs?: number;
  /** Clock, ms. Default Date.now. */
  now?: () => number;
  /**
   * Per-endpoint and per-organization limits on in-flight attempts, with a circuit per endpoint
   * (see endpoint-gate.ts); `false` turns them off. Defaults: each endpoint and each organization
   * at most 80 % of the process's delivery slots, endpoints start at 4, the circuit opens after
   * 3 timeouts in a row for 30 s (doubling up to 5 min).
   */
  fairness?: false | Partial<Omit<EndpointGateOptions, 'timeoutMs'>>;
}

export interface StartWebhookWorkersOptions {
  /** Parallel deliveries in this process (IO-bound: ~50). */
  concurrency: number;
  /** Also run the outbox relay in this process. Default true. */
  relay?: boolean;
}

export interface WebhooksModule {
  service: WebhooksService;
  /** Registers the /webhooks routes (call inside the /api/v1 prefix, e.g. via RouteDeps.extra). */
  registerRoutes(api: Parameters<typeof registerWebhookRoutes>[0]): void;
  /** Starts the delivery worker (and the relay); `close` stops them, waiting up to `timeoutMs` for attempts. */
  startWorkers(opts: StartWebhookWorkersOptions): Promise<{ close(timeoutMs?: number): Promise<void> }>;
  relay: {
    /** Tells the relays (this process and others, via Redis) that events were committed. Never throws. */
    nudge(): void;
    /** Relays one batch in the caller (tests, CLI); returns how many events were relayed. */
    runOnce(): Promise<number>;
    /** Adds another consumer of relayed events (workflow triggers), run in the same relay transaction. */
    addConsumer(c: OutboxConsumer): void;
  };
  /** Deliveries to a workflow step's own URL (send_webhook_event). */
  deliveries: DirectDeliveries;
}

export function createWebhooksModule(deps: WebhooksModuleDeps, opts: WebhooksModuleOptions = {}): WebhooksModule {
  const channel = `${deps.config.REDIS_PREFIX}:events:nudge`;
  const allow = createAllowList(deps.config.WEBHOOK_ALLOWED_HOSTS);
  const retryDelaysMs = parseRetryDelays(deps.config.WEBHOOK_RETRY_DELAYS);
  const dispatcher = createQueueDispatcher(deps.queues, deps.redis);
  const subs = createSubscriptionsRepository(deps.db);
  const deliveries = createDeliveriesRepository(deps.db);
  const fanOut = createWebhookFanOut(dispatcher);
  // One list, read by every relay pass: consumers added later (workflows) take part at once.
  const consumers: OutboxConsumer[] = [fanOut];
  const service = createWebhooksService({ db: deps.db, subs, deliveries, secretBox: deps.secretBox, dispatcher, allow, now: opts.now });
  let localRelay: RunningRelay | undefined;

  const nudge = (): void => {
    // A relay in this process takes the events at once; publishing too would only wake it twice.
    if (localRelay) return localRelay.nudge();
    deps.redis.publish(channel, '1').catch((err: unknown) => deps.logger.warn({ err }, 'could not publish the outbox nudge'));
  };

  return {
    service,
    registerRoutes: (api) => registerWebhookRoutes(api, service),
    relay: {
      nudge,
      runOnce: () => relayBatch(deps.db, consumers, { batchSize: opts.relayBatchSize }),
      addConsumer: (c) => { consumers.push(c); },
    },
    deliveries: createDirectDeliveries({ dispatcher, allow }),
    async startWorkers({ concurrency, relay = true }) {
      const http = createSafeHttpClient({
        allow, resolver: opts.resolver, timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS, connectTimeoutMs: deps.config.WEBHOOK_CONNECT_TIMEOUT_MS ?? 3_000,
        // One pooled socket per concurrent delivery, kept idle between them (no reconnect churn).
        maxSocketsPerHost: Math.max(concurrency, 8), maxFreeSockets: Math.max(concurrency, 8),
      });
      // A dead receiver holds a slot for the whole timeout: no endpoint or organization may take
      // every slot of this process.
      const share = Math.max(1, Math.ceil(concurrency * 0.8));
      const gate = opts.fairness === false
        ? undefined
        : createEndpointGate({ endpointMax: share, orgMax: share, timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS, ...opts.fairness });
      const executor = createDeliveryExecutor({
        store: createDeliveryStore(deps.db), http, dispatcher, secretBox: deps.secretBox, allow, retryDelaysMs,
        timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS, jitter: opts.jitter, logger: deps.logger, now: opts.now, gate,
      });
      const worker = startDeliveryWorker(executor, {
        connection: deps.queues.workerConnection(), prefix: deps.queues.prefix, concurrency,
        lockDurationMs: opts.lockDurationMs ?? Math.max(30_000, 2 * deps.config.WEBHOOK_TIMEOUT_MS),
        stalledIntervalMs: opts.stalledIntervalMs, logger: deps.logger,
      });
      const relayHandle = relay
        ? await startOutboxRelay({
          db: deps.db, redis: deps.redis, channel, consumers, intervalMs: opts.relayIntervalMs, batchSize: opts.relayBatchSize,
          logger: deps.logger,
          onTick: async () => { await sweepOverdueDeliveries(deps.db, dispatcher, { graceMs: opts.sweepGraceMs }); },
        })
        : undefined;
      localRelay = relayHandle;
      return {
        async close(timeoutMs?: number) {
          if (localRelay === relayHandle) localRelay = undefined;
          await relayHandle?.close();
          await worker.close(timeoutMs);
          http.close();
        },
      };
    },
  };
}
