// BullMQ job schedulers live only in Redis: a Redis that restarts empty (or a FLUSHDB) loses them.
// This re-asserts a set of schedulers on a timer and on every reconnect, one pass at a time.
import type { Redis } from 'ioredis';
import type { Logger } from './logger.js';

/**
 * Runs `reassert` now (its failure fails the call, as a Redis down at start-up should), then on
 * every `everyMs` and every `ready` of `redis`; `what` names the schedulers in warnings.
 */
export async function keepAsserted(
  redis: Redis,
  everyMs: number,
  reassert: () => Promise<unknown>,
  logger: Logger,
  what: string,
): Promise<{ stop(): void }> {
  let stopped = false;
  let running: Promise<unknown> | undefined;
  const again = (why: string) => {
    running ??= reassert()
      .catch((err: unknown) => {
        if (!stopped) logger.warn({ err, why }, `could not re-assert the ${what}; retrying on the next pass`);
      })
      .finally(() => {
        running = undefined;
      });
  };
  await reassert();
  const onReady = () => {
    if (!stopped) again('reconnect');
  };
  redis.on('ready', onReady);
  const timer = setInterval(() => again('timer'), everyMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      redis.off('ready', onReady);
    },
  };
}
