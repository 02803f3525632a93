// Wiring of the webhooks capability: the subscriptions service, the outbox relay's fan-out
// (events → deliveries) and what the delivery worker needs. The container calls
// createWebhooksModule once per process; routes and workers are registered elsewhere (the route
// index, the worker table), this only builds.
import type { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Queues } from '../../jobs/queues.js';
import type { SecretBox } from '../../lib/crypto.js';
import type { Logger } from '../../lib/logger.js';
import { createAllowList, type AllowList, type Resolver } from '../../lib/http-client/index.js';
import { relayBatch, type OutboxConsumer } from '../events/relay.js';
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
    | 'WEBHOOK_RETRY_DELAYS'
    | 'WEBHOOK_TIMEOUT_MS'
    | 'WEBHOOK_CONNECT_TIMEOUT_MS'
    | 'WEBHOOK_ALLOWED_HOSTS'
    | 'REDIS_PREFIX'
  >;
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

/** A relay running in this process (workers/outbox-relay.ts). */
export interface LocalRelay {
  nudge(): void;
}

/** What the delivery worker and the outbox relay need; workers/webhook-delivery.ts starts them. */
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
  /** Pub/sub channel of the relay nudges. */
  channel: string;
  consumers: readonly OutboxConsumer[];
  /** The safety-net sweep of overdue deliveries, run on each relay tick. */
  sweep(): Promise<unknown>;
  options: WebhooksModuleOptions;
  /** Makes `relay.nudge` reach a relay started in this process directly; returns the undo. */
  attachRelay(relay: LocalRelay): () => void;
}

export interface WebhooksModule {
  service: WebhooksService;
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
  worker: WebhookWorkerDeps;
}

export function createWebhooksModule(deps: WebhooksModuleDeps, opts: WebhooksModuleOptions = {}): WebhooksModule {
  const channel = `${deps.config.REDIS_PREFIX}:events:nudge`;
  const allow = createAllowList(deps.config.WEBHOOK_ALLOWED_HOSTS);
  const dispatcher = createQueueDispatcher(deps.queues, deps.redis);
  const subs = createSubscriptionsRepository(deps.db);
  const deliveries = createDeliveriesRepository(deps.db);
  const fanOut = createWebhookFanOut(dispatcher);
  // One list, read by every relay pass: consumers added later (workflows) take part at once.
  const consumers: OutboxConsumer[] = [fanOut];
  const service = createWebhooksService({
    db: deps.db,
    subs,
    deliveries,
    secretBox: deps.secretBox,
    dispatcher,
    allow,
    now: opts.now,
  });
  let localRelay: LocalRelay | undefined;

  const nudge = (): void => {
    // A relay in this process takes the events at once; publishing too would only wake it twice.
    if (localRelay) return localRelay.nudge();
    deps.redis
      .publish(channel, '1')
      .catch((err: unknown) => deps.logger.warn({ err }, 'could not publish the outbox nudge'));
  };

  return {
    service,
    relay: {
      nudge,
      runOnce: () => relayBatch(deps.db, consumers, { batchSize: opts.relayBatchSize }),
      addConsumer: (c) => {
        consumers.push(c);
      },
    },
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
      channel,
      consumers,
      options: opts,
      sweep: () => sweepOverdueDeliveries(deps.db, dispatcher, { graceMs: opts.sweepGraceMs }),
      attachRelay(relay) {
        localRelay = relay;
        return () => {
          if (localRelay === relay) localRelay = undefined;
        };
      },
    },
  };
}
