import type { Redis } from 'ioredis';

/**
 * Progressive delay for logins to one e-mail address, in place of a per-address lock-out that
 * anyone who knows the address could trigger. Every attempt is answered; after `freeFailures`
 * attempts without a success each further attempt waits its turn: attempts for the address are
 * given slots at least `step` apart, where the step doubles with each attempt up to `maxStepMs`.
 * An attempt counts when it asks for its slot, not when its password check ends, and slots are
 * reserved atomically in Redis, so a burst of parallel attempts from many addresses queues like
 * the same attempts one after another. A successful login clears the record; otherwise it is
 * forgotten `forgetAfterSec` after the last attempt. An attempt whose slot is further away than
 * `maxWaitMs` is answered 429 with the wait (bounded; never a lock-out).
 *
 * An address the account has logged in from successfully before (last 30 days) skips the queue,
 * so someone hammering an account from elsewhere does not keep its owner out (the per-IP limit
 * still applies to everyone).
 */
export interface LoginThrottleOptions {
  /** Attempts without a success before any delay. Default 5. */
  freeFailures?: number;
  /** First step, ms. Default 1000. */
  baseMs?: number;
  /** Largest step, ms. Default 30000. */
  maxStepMs?: number;
  /** Longest a request is held waiting for its slot, ms. Default 15000. */
  maxWaitMs?: number;
  /** Default 900 (15 minutes). */
  forgetAfterSec?: number;
  /** How a request waits for its slot (tests record instead of sleeping). */
  sleep?: (ms: number) => Promise<void>;
}

// Reply to 'reserve': {refused (0|1), wait ms}. Times are Redis' own clock, shared by every process.
const SCRIPT = `
local key, mode, ip = ARGV[1], ARGV[2], ARGV[8]
local known = key .. ':known'
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if mode == 'ok' then
  redis.call('DEL', key)
  redis.call('SADD', known, ip)
  if redis.call('SCARD', known) > 50 then redis.call('SPOP', known) end
  redis.call('PEXPIRE', known, 30 * 86400000)
  return {0, 0}
end
local ttl = tonumber(ARGV[3]) * 1000
local free, base, maxStep, maxWait = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
if redis.call('SISMEMBER', known, ip) == 1 then return {0, 0} end
local h = redis.call('HMGET', key, 'fails', 'next')
local fails = tonumber(h[1] or '0')
local nxt = tonumber(h[2] or '0')
local slot = math.max(now, nxt)
local wait = slot - now
if wait > maxWait then return {1, wait} end
redis.call('HSET', key, 'fails', fails + 1)
if fails >= free then
  local step = math.min(base * math.pow(2, fails - free), maxStep)
  redis.call('HSET', key, 'next', slot + step)
end
redis.call('PEXPIRE', key, ttl)
return {0, wait}
`;

export interface LoginThrottle {
  /** Waits for this attempt's slot; returns the wait, or `refused` with the seconds to retry in. */
  admit(
    email: string,
    ip: string,
  ): Promise<{ refused: false; waitedMs: number } | { refused: true; retryAfterSec: number }>;
  /** Clears the address's attempts and remembers `ip` as one the account logs in from. */
  succeeded(email: string, ip: string): Promise<void>;
}

export function createLoginThrottle(
  redis: Redis,
  keyOf: (email: string) => string,
  opts: LoginThrottleOptions = {},
): LoginThrottle {
  // KEYS[1] repeats ARGV[1] (the script's key) so that a cluster routes the call to its node.
  redis.defineCommand('docpipeLoginThrottle', { numberOfKeys: 1, lua: SCRIPT });
  const run = (
    redis as unknown as { docpipeLoginThrottle(...a: (string | number)[]): Promise<[number, number]> }
  ).docpipeLoginThrottle.bind(redis);
  const o = { freeFailures: 5, baseMs: 1000, maxStepMs: 30_000, maxWaitMs: 15_000, forgetAfterSec: 900, ...opts };
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const key = (email: string) => keyOf(email.trim().toLowerCase());
  return {
    async admit(email, ip) {
      const k = key(email);
      const [refused, wait] = await run(
        k,
        k,
        'reserve',
        o.forgetAfterSec,
        o.freeFailures,
        o.baseMs,
        o.maxStepMs,
        o.maxWaitMs,
        ip,
      );
      if (refused === 1) return { refused: true, retryAfterSec: Math.max(1, Math.ceil(wait / 1000)) };
      if (wait > 0) await sleep(wait);
      return { refused: false, waitedMs: wait };
    },
    async succeeded(email, ip) {
      const k = key(email);
      await run(k, k, 'ok', o.forgetAfterSec, 0, 0, 0, 0, ip);
    },
  };
}
