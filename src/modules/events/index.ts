// Wiring of the events capability: the outbox (its emitter and the database that announces
// commits that wrote to it), the relay that hands every committed event to the registered
// consumers (webhook deliveries, workflow triggers, Sheets exports), and what the `events`
// worker role needs to run the relay (workers/events.ts). The container calls createEventsModule
// once per process, before the modules that write events, and registers their consumers on it.
import type { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../lib/logger.js';
import { announceOutboxWrites } from './announce.js';
import { createEventEmitter, type EventEmitter } from './emitter.js';
import { relayBatch, type OutboxConsumer } from './relay.js';

export type { OutboxConsumer, AfterCommit } from './relay.js';
export type { EventEmitter } from './emitter.js';

export interface EventsModuleDeps {
  /** The raw database: the relay's own statements announce nothing. */
  db: Db;
  redis: Redis;
  config: Pick<Config, 'REDIS_PREFIX'>;
  logger: Logger;
}

/** Tuning; every field is optional. */
export interface EventsModuleOptions {
  /** Relay safety-net period, ms: catches events whose nudge was lost. Default 2000. */
  relayIntervalMs?: number;
  /** Events per relay transaction. Default 500. */
  relayBatchSize?: number;
}

/** A relay running in this process (workers/events.ts). */
export interface LocalRelay {
  nudge(): void;
}

/** What the `events` worker role needs to run the relay. */
export interface EventsWorkerDeps {
  db: Db;
  redis: Redis;
  logger: Logger;
  /** Pub/sub channel of the relay nudges. */
  channel: string;
  /** Read by every relay pass: consumers registered after start take part at once. */
  consumers: readonly OutboxConsumer[];
  options: EventsModuleOptions;
  /** Makes nudges of this process reach a relay started in it directly; returns the undo. */
  attachRelay(relay: LocalRelay): () => void;
}

export interface EventsModule {
  /** The database every other module is given: its commits that wrote events nudge the relay. */
  db: Db;
  emitter: EventEmitter;
  relay: {
    /** Tells the relays (this process's, or the others' through Redis) that events were committed. Never throws. */
    nudge(): void;
    /** Relays one batch in the caller (tests, CLI); returns how many events were relayed. */
    runOnce(): Promise<number>;
  };
  /** Registers a consumer of relayed events; it runs inside each relay transaction. */
  addConsumer(c: OutboxConsumer): void;
  worker: EventsWorkerDeps;
}

export function createEventsModule(deps: EventsModuleDeps, opts: EventsModuleOptions = {}): EventsModule {
  const channel = `${deps.config.REDIS_PREFIX}:events:nudge`;
  const consumers: OutboxConsumer[] = [];
  let localRelay: LocalRelay | undefined;

  const nudge = (): void => {
    // A relay in this process takes the events at once; publishing too would only wake it twice.
    if (localRelay) return localRelay.nudge();
    deps.redis
      .publish(channel, '1')
      .catch((err: unknown) => deps.logger.warn({ err }, 'could not publish the outbox nudge'));
  };

  return {
    db: announceOutboxWrites(deps.db, nudge),
    emitter: createEventEmitter(),
    relay: {
      nudge,
      runOnce: () => relayBatch(deps.db, consumers, { batchSize: opts.relayBatchSize }),
    },
    addConsumer(c) {
      consumers.push(c);
    },
    worker: {
      db: deps.db,
      redis: deps.redis,
      logger: deps.logger,
      channel,
      consumers,
      options: opts,
      attachRelay(relay) {
        localRelay = relay;
        return () => {
          if (localRelay === relay) localRelay = undefined;
        };
      },
    },
  };
}
