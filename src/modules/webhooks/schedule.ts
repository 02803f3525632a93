// Retry timing for webhook deliveries: jitter so a receiver outage does not end in a
// synchronised stampede, and Retry-After. The schedule itself is WEBHOOK_RETRY_DELAYS (config.ts).

/** Maps a base delay (ms) to the delay actually used. */
export type Jitter = (ms: number) => number;

/** A jitter spreading delays uniformly over ±`ratio` of the base; `random` injectable for tests. */
export function createJitter(ratio: number, random: () => number = Math.random): Jitter {
  if (!(ratio >= 0 && ratio < 1)) throw new RangeError('jitter ratio must be in [0, 1)');
  return (ms) => ms * (1 - ratio + 2 * ratio * random());
}

/** ±20 % uniform jitter. */
export const defaultJitter: Jitter = (ms) => ms * (0.8 + 0.4 * Math.random());

/** No jitter: deterministic schedules in tests. */
export const noJitter: Jitter = (ms) => ms;

/**
 * Delay before the next attempt, ms, after `attemptsMade` attempts (≥ 1) have failed; `null`
 * once the schedule is exhausted (total attempts = 1 + delays.length).
 */
export function nextDelayMs(
  attemptsMade: number,
  delays: readonly number[],
  jitter: Jitter = defaultJitter,
): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) {
    throw new RangeError(`attemptsMade must be an integer >= 1, got ${attemptsMade}`);
  }
  const base = delays[attemptsMade - 1];
  if (base === undefined) return null;
  return Math.max(0, Math.round(jitter(base)));
}

/**
 * Parses `Retry-After` (delta-seconds or HTTP-date) into ms from `nowMs`; null when absent or
 * unparseable.
 */
export function parseRetryAfterMs(
  header: string | readonly string[] | undefined,
  nowMs: number = Date.now(),
): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/**
 * Honours a receiver's `Retry-After` without letting it shorten our schedule or push a retry
 * arbitrarily far out: the result is clamped into [scheduledMs, 2 × scheduledMs].
 */
export function honourRetryAfter(
  scheduledMs: number,
  retryAfterHeader: string | readonly string[] | undefined,
  nowMs: number = Date.now(),
): number {
  const wanted = parseRetryAfterMs(retryAfterHeader, nowMs);
  if (wanted === null) return scheduledMs;
  return Math.min(Math.max(wanted, scheduledMs), 2 * scheduledMs);
}
