// A sweep on a timer in every worker process of a role, run by one process at a time (a Redis
// lock), never overlapping itself in this process. Used by the workflow and report workers, whose
// sweeps find runs and executions whose job vanished.
import type { Redis } from 'ioredis';
import type { Logger } from '../src/lib/logger.js';
import { withRedisLock } from '../src/lib/redis-lock.js';

export interface LockedSweepOptions {
  redis: Redis;
  /** The Redis key of the lock shared by every process of the role. */
  lockKey: string;
  /** How long one pass may hold the lock, ms. */
  lockMs: number;
  /** Pass period, ms; 0 or less starts no timer. */
  periodMs: number;
  sweep: () => Promise<unknown>;
  logger: Logger;
  /** Named in the warning when a pass fails, e.g. "workflow sweep". */
  name: string;
}

export function startLockedSweep(o: LockedSweepOptions): { stop(): void } {
  if (o.periodMs <= 0) return { stop: () => undefined };
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    withRedisLock(o.redis, o.lockKey, o.lockMs, o.sweep)
      .catch((err: unknown) => o.logger.warn({ err }, `${o.name} failed; retrying on the next pass`))
      .finally(() => {
        sweeping = false;
      });
  }, o.periodMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
