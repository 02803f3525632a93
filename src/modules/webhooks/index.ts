// Wiring of the webhooks capability: the subscriptions service, the outbox consumer that turns
// events into deliveries (registered on the events module by the container) and what the
// delivery worker needs. The container calls createWebhooksModule once per process; routes and
// workers are registered elsewhere (the route index, the worker table), this only builds.
import type { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Queues } from '../../jobs/queues.js';
import type { SecretBox } from '../../lib/crypto.js';
import type { Logger } from '../../lib/logger.js';
import { createAllowList, type AllowList, type Resolver } from '../../lib/http-client/index.js';
import type { OutboxConsumer } from '../events/relay.js';
import { createDeliveriesRepository } from './deliveries.repository.js';
import { createDirectDeliveries, type DirectDeliveries } from './direct-delivery.js';
import { createQueueDispatcher, type DeliveryDispatcher } from './dispatcher.js';
import type { EndpointGateOptions } from './endpoint-gate.js';
import { createWebhookFanOut } from './fanout.js';
import type { Jitter } from './schedule.js';
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
  config: Pick<
    Config,
    'WEBHOOK_RETRY_DELAYS' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_CONNECT_TIMEOUT_MS' | 'WEBHOOK_ALLOWED_HOSTS'
  >;
  logger: Logger;
}

/** Tuning and test hooks; every field is optional. */
export interface WebhooksModuleOptions {
  /** Retry-delay jitter. Default ±20 % uniform; tests pass `noJitter`. */
  jitter?: Jitter;
  /** Name resolution for outbound requests. Default: the system resolver. */
  resolver?: Resolver;
  /** How often the delivery worker looks for overdue deliveries whose job was lost, ms. Default 2000. */
  sweepIntervalMs?: number;
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

/** What the delivery worker and its sweep need; workers/webhook-delivery.ts starts them. */
export interface WebhookWorkerDeps {
  db: Db;
  redis: Redis;
  queues: Queues;
  secretBox: SecretBox;
  logger: Logger;
  dispatcher: DeliveryDispatcher;
  allow: AllowList;
  /** Retry delays, ms (WEBHOOK_RETRY_DELAYS). */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  connectTimeoutMs: number;
  /** The safety-net sweep of overdue deliveries (jobs lost after their rows committed). */
  sweep(): Promise<unknown>;
  options: WebhooksModuleOptions;
}

export interface WebhooksModule {
  service: WebhooksService;
  /** The outbox consumer: one delivery row per matching subscription, in the relay transaction. */
  fanOut: OutboxConsumer;
  /** Deliveries to a workflow step's own URL (send_webhook_event). */
  deliveries: DirectDeliveries;
  worker: WebhookWorkerDeps;
}

export function createWebhooksModule(deps: WebhooksModuleDeps, opts: WebhooksModuleOptions = {}): WebhooksModule {
  const allow = createAllowList(deps.config.WEBHOOK_ALLOWED_HOSTS);
  const dispatcher = createQueueDispatcher(deps.queues, deps.redis);
  const subs = createSubscriptionsRepository(deps.db);
  const deliveries = createDeliveriesRepository(deps.db);
  const service = createWebhooksService({
    db: deps.db,
    subs,
    deliveries,
    secretBox: deps.secretBox,
    dispatcher,
    allow,
    now: opts.now,
  });

  return {
    service,
    fanOut: createWebhookFanOut(dispatcher),
    deliveries: createDirectDeliveries({ dispatcher, allow }),
    worker: {
      db: deps.db,
      redis: deps.redis,
      queues: deps.queues,
      secretBox: deps.secretBox,
      logger: deps.logger,
      dispatcher,
      allow,
      retryDelaysMs: deps.config.WEBHOOK_RETRY_DELAYS,
      timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
      connectTimeoutMs: deps.config.WEBHOOK_CONNECT_TIMEOUT_MS,
      options: opts,
      sweep: () => sweepOverdueDeliveries(deps.db, dispatcher, { graceMs: opts.sweepGraceMs }),
    },
  };
}
