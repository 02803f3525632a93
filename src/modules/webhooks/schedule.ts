// Retry timing for webhook deliveries: the seed schedule (1 min, 5 min, 30 min, 2 h, 12 h),
// jitter so a receiver outage does not end in a synchronised stampede, and Retry-After.

/** The seed retry schedule, seconds after each failed attempt. */
export const DEFAULT_RETRY_DELAYS_SEC: readonly number[] = [60, 300, 1800, 7200, 43200];

/** Longest single delay accepted from configuration: 7 days. */
const MAX_DELAY_SEC = 7 * 24 * 3600;
const MAX_RETRIES = 50;
const NUMBER = /^\d+(\.\d+)?$|^\.\d+$/;

/**
 * Parses a comma-separated list of delays in **seconds** (fractions allowed, e.g. `0.05,0.1` for
 * tests) and returns them in **milliseconds**, rounded to whole ms. Empty/undefined gives the
 * seed schedule. The number of entries is the number of retries. Throws on malformed input.
 */
export function parseRetryDelays(spec?: string): number[] {
  if (spec === undefined || spec.trim() === '') return DEFAULT_RETRY_DELAYS_SEC.map((s) => s * 1000);
  const parts = spec.split(',').map((p) => p.trim());
  if (parts.length > MAX_RETRIES) {
    throw new Error(`retry delays: at most ${MAX_RETRIES} entries allowed, got ${parts.length}`);
  }
  return parts.map((p, i) => {
    if (!NUMBER.test(p)) {
      throw new Error(`retry delays: entry ${i + 1} ("${p}") is not a non-negative number of seconds; expected e.g. "60,300,1800"`);
    }
    const sec = Number(p);
    if (sec > MAX_DELAY_SEC) {
      throw new Error(`retry delays: entry ${i + 1} (${p} s) exceeds the maximum of ${MAX_DELAY_SEC} s`);
    }
    return Math.round(sec * 1000);
  });
}

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
export function nextDelayMs(attemptsMade: number, delays: readonly number[], jitter: Jitter = defaultJitter): number | null {
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
export function parseRetryAfterMs(header: string | readonly string[] | undefined, nowMs: number = Date.now()): number | null {
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
