// What keeps periodic maintenance alive when Redis loses its data (a restart without AOF, a
// FLUSHDB, a failover to an empty replica): BullMQ job schedulers live only in Redis, so they are
// upserted again on a timer and on every reconnect, and the sweeper also runs from a timer in
// this process, so that lost pipeline jobs are found even while the schedulers are gone.
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../src/lib/logger.js';
import { withRedisLock } from '../src/lib/redis-lock.js';

/** The repeatable maintenance jobs. Upserting an existing one keeps its next run time. */
export async function upsertMaintenanceSchedulers(q: Queue, sweepEveryMs: number): Promise<void> {
  await q.upsertJobScheduler('sweep', { every: sweepEveryMs }, { name: 'sweep', data: { kind: 'sweep' } });
  await q.upsertJobScheduler(
    'retention',
    { pattern: '0 30 3 * * *', tz: 'UTC' },
    { name: 'retention', data: { kind: 'retention' } },
  );
}

export interface MaintenanceTimersOptions {
  queue: Queue;
  /** The command connection the queue uses; its `ready` event marks a reconnect. */
  redis: Redis;
  logger: Logger;
  sweepEveryMs: number;
  reassertEveryMs: number;
  /** One sweeper pass, run under the shared sweep lock (see {@link sweepUnderLock}). */
  sweepOnce: () => Promise<unknown>;
}

/**
 * Starts the re-assertion of the schedulers and the in-process sweeper; resolves once the
 * schedulers are in place (a Redis that is down at start-up fails start-up, as before).
 */
export async function startMaintenanceTimers(o: MaintenanceTimersOptions): Promise<{ stop(): void }> {
  let stopped = false;
  let asserting: Promise<void> | undefined;
  const reassert = (why: string): Promise<void> => {
    // One upsert pass at a time; a reconnect during a timer pass is covered by that pass.
    asserting ??= upsertMaintenanceSchedulers(o.queue, o.sweepEveryMs)
      .catch((err: unknown) => {
        if (!stopped)
          o.logger.warn({ err, why }, 'could not re-assert the maintenance schedulers; retrying on the next pass');
      })
      .finally(() => {
        asserting = undefined;
      });
    return asserting;
  };
  await upsertMaintenanceSchedulers(o.queue, o.sweepEveryMs);
  const onReady = (): void => {
    if (!stopped) void reassert('reconnect');
  };
  o.redis.on('ready', onReady);
  const reassertTimer = setInterval(() => void reassert('timer'), o.reassertEveryMs);
  reassertTimer.unref();

  let sweeping = false;
  const sweepTimer = setInterval(() => {
    if (sweeping || stopped) return;
    sweeping = true;
    o.sweepOnce()
      .catch((err: unknown) => {
        if (!stopped) o.logger.warn({ err }, 'in-process sweep failed; retrying on the next pass');
      })
      .finally(() => {
        sweeping = false;
      });
  }, o.sweepEveryMs);
  sweepTimer.unref();

  return {
    stop() {
      stopped = true;
      clearInterval(reassertTimer);
      clearInterval(sweepTimer);
      o.redis.off('ready', onReady);
    },
  };
}

/**
 * Runs `sweep` unless another process (or this one's scheduled job) is sweeping: two passes at
 * once would only do the same lookups twice. Returns the pass's result, or null when skipped.
 */
export async function sweepUnderLock<T>(
  redis: Redis,
  lockKey: string,
  ttlMs: number,
  sweep: () => Promise<T>,
): Promise<T | null> {
  const res = await withRedisLock(redis, lockKey, ttlMs, sweep);
  return res.ran ? res.value : null;
}
