// Runs the outbox relay in a worker process: woken by a Redis pub/sub nudge the moment an event
// writer commits (low latency), and by a timer as the safety net for lost nudges and crashes.
import type { Redis } from 'ioredis';
import type { Db } from '../src/db/client.js';
import type { Logger } from '../src/lib/logger.js';
import { createRelayLoop, relayBatch, type OutboxConsumer } from '../src/modules/events/relay.js';

/** Options of {@link startOutboxRelay}. */
export interface OutboxRelayOptions {
  db: Db;
  /** A command connection; a duplicate of it is used for the subscription. */
  redis: Redis;
  /** Pub/sub channel carrying nudges. */
  channel: string;
  consumers: readonly OutboxConsumer[];
  /** Safety-net period, ms. Default 2000. */
  intervalMs?: number;
  /** Events per relay transaction. Default 500. */
  batchSize?: number;
  /** Extra periodic work (the delivery sweep). */
  onTick?: () => Promise<void>;
  logger: Logger;
}

export interface RunningRelay {
  nudge(): void;
  /** Resolves when the relay has nothing in progress. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startOutboxRelay(opts: OutboxRelayOptions): Promise<RunningRelay> {
  const batchSize = opts.batchSize ?? 500;
  const onError = (err: unknown): void => opts.logger.error({ err }, 'outbox relay error');
  const loop = createRelayLoop({
    runBatch: () => relayBatch(opts.db, opts.consumers, { batchSize, onAfterCommitError: onError }),
    batchSize,
    intervalMs: opts.intervalMs,
    onTick: opts.onTick,
    onError,
  });
  const sub = opts.redis.duplicate({ lazyConnect: true });
  sub.on('error', (err) => opts.logger.warn({ err }, 'outbox relay subscriber error'));
  sub.on('message', () => loop.nudge());
  try {
    await sub.connect();
    await sub.subscribe(opts.channel);
  } catch (err) {
    // Without pub/sub the timer still relays everything, only later.
    opts.logger.warn({ err }, 'outbox relay: cannot subscribe to nudges; relying on the periodic sweep');
  }
  // Whatever was committed while no relay ran (a crash between commit and nudge) goes out now.
  loop.nudge();
  return {
    nudge: () => loop.nudge(),
    idle: () => loop.idle(),
    async close() {
      await loop.stop();
      sub.disconnect();
    },
  };
}
