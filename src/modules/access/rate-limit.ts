import type { Redis } from 'ioredis';

export interface Policy {
  /** Name shown in the RateLimit headers, e.g. `org-minute`. */
  name: string;
  /** Redis key base; the window index is appended. */
  key: string;
  limit: number;
  windowSec: number;
}

export interface Stamp {
  key: string;
  expected: string;
}

export interface PolicyState {
  policy: Policy;
  remaining: number;
  /** Seconds until this policy's window resets (ceil, ≥ 1). */
  resetSec: number;
}

export type CheckResult =
  | { outcome: 'stale' }
  | { outcome: 'allowed' | 'limited'; retryAfterSec: number; states: PolicyState[]; watched: string[] };

// One script checks that the cached credential is still current (stamps), then evaluates every
// policy for each of `n` requests in arrival order, counting only the requests it allows: a
// rejected request consumes nothing, and a batch of n gives exactly the answers n single calls in
// a row would. Fixed windows aligned to the epoch, using Redis' clock so every API process agrees.
// It also returns the current values of "watched" version counters (e.g. the caller's project
// list version), so caches keyed by them are validated in the same round trip.
//
// Reply: {-1} when a stamp is stale; otherwise
//   {np, reset_1..reset_np, then per request: limited (0|1), retry, count_1..count_np, then watched}
// where count is the policy's count after the request (an allowed request included).
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local n = tonumber(ARGV[1])
local i = 2
local ns = tonumber(ARGV[i]); i = i + 1
for s = 1, ns do
  local v = redis.call('GET', ARGV[i]) or '0'
  if v ~= ARGV[i + 1] then return {-1} end
  i = i + 2
end
local np = tonumber(ARGV[i]); i = i + 1
local keys, limits, windows, resets, counts, added = {}, {}, {}, {}, {}, {}
local out = {np}
for p = 1, np do
  local base = ARGV[i]; limits[p] = tonumber(ARGV[i + 1]); windows[p] = tonumber(ARGV[i + 2]); i = i + 3
  local win = math.floor(now / windows[p])
  keys[p] = base .. ':' .. win
  counts[p] = tonumber(redis.call('GET', keys[p]) or '0')
  resets[p] = (win + 1) * windows[p] - now
  added[p] = 0
  out[#out + 1] = math.ceil(resets[p])
end
for r = 1, n do
  local retry = -1
  for p = 1, np do
    if counts[p] + 1 > limits[p] and resets[p] > retry then retry = resets[p] end
  end
  if retry >= 0 then
    out[#out + 1] = 1
    out[#out + 1] = math.ceil(retry)
  else
    for p = 1, np do
      counts[p] = counts[p] + 1
      added[p] = added[p] + 1
    end
    out[#out + 1] = 0
    out[#out + 1] = 0
  end
  for p = 1, np do out[#out + 1] = counts[p] end
end
for p = 1, np do
  if added[p] > 0 then
    if redis.call('INCRBY', keys[p], added[p]) == added[p] then redis.call('EXPIRE', keys[p], windows[p] + 5) end
  end
end
local nw = tonumber(ARGV[i] or '0'); i = i + 1
for w = 1, nw do
  out[#out + 1] = redis.call('GET', ARGV[i]) or '0'
  i = i + 1
end
return out
`;

export interface RateLimiter {
  /** `watch`: keys whose current values come back in `watched` (missing keys read as '0'). */
  check(policies: Policy[], stamps?: Stamp[], watch?: string[]): Promise<CheckResult>;
}

interface Waiter {
  resolve(r: CheckResult): void;
  reject(err: unknown): void;
}

interface Group {
  policies: Policy[];
  stamps: Stamp[];
  watch: string[];
  waiters: Waiter[];
}

/** Most requests one script call answers; larger groups are split. */
const MAX_BATCH = 256;

/**
 * Checks are collected until the event loop has handled every socket that was ready, then sent
 * together: checks for the same credential (the same cached policy, stamp and watch arrays) share
 * one script call that answers each of them in order, and all calls of a pass leave in one write.
 * Under load this saves most of the per-request Redis work on both sides; a lone request waits for
 * nothing but the end of the current loop turn.
 */
export function createRateLimiter(redis: Redis): RateLimiter {
  // The script reads every key from ARGV; KEYS[1] only routes the call on a cluster, where all of
  // a call's keys share the install's hash tag (see effectivePrefix) and so one slot.
  redis.defineCommand('docpipeRateCheck', { numberOfKeys: 1, lua: SCRIPT });
  const call = (
    redis as unknown as { docpipeRateCheck(...args: (string | number)[]): Promise<(number | string)[]> }
  ).docpipeRateCheck.bind(redis);

  // Grouped by array identity: the access service hands out the same arrays for one credential.
  let pending = new Map<Policy[], Group[]>();
  let scheduled = false;

  function send(g: Group, waiters: Waiter[]): void {
    const args: (string | number)[] = [waiters.length, g.stamps.length];
    for (const s of g.stamps) args.push(s.key, s.expected);
    args.push(g.policies.length);
    for (const p of g.policies) args.push(p.key, p.limit, p.windowSec);
    args.push(g.watch.length, ...g.watch);
    // Every waiter is settled whatever happens (a waiter already resolved ignores the reject).
    const failAll = (err: unknown) => {
      for (const w of waiters) w.reject(err);
    };
    let reply: Promise<(number | string)[]>;
    try {
      reply = call(g.stamps[0]?.key ?? g.policies[0]?.key ?? g.watch[0] ?? 'rl', ...args);
    } catch (err) {
      failAll(err);
      return;
    }
    reply
      .then((out) => {
        if (Number(out[0]) === -1) {
          for (const w of waiters) w.resolve({ outcome: 'stale' });
          return;
        }
        const np = Number(out[0]);
        const size = 2 + np;
        const first = 1 + np;
        const watched = out.slice(first + waiters.length * size).map(String);
        waiters.forEach((w, r) => {
          const at = first + r * size;
          const states = g.policies.map((policy, p) => ({
            policy,
            remaining: Math.max(0, policy.limit - Number(out[at + 2 + p])),
            resetSec: Math.max(1, Number(out[1 + p])),
          }));
          const limited = Number(out[at]) === 1;
          w.resolve({
            outcome: limited ? 'limited' : 'allowed',
            retryAfterSec: Math.max(1, Number(out[at + 1])),
            states,
            watched,
          });
        });
      })
      .catch(failAll);
  }

  function flush(): void {
    scheduled = false;
    const groups = pending;
    pending = new Map();
    for (const list of groups.values()) {
      for (const g of list) {
        for (let i = 0; i < g.waiters.length; i += MAX_BATCH) send(g, g.waiters.slice(i, i + MAX_BATCH));
      }
    }
  }

  return {
    check(policies, stamps = [], watch = []) {
      return new Promise<CheckResult>((resolve, reject) => {
        let list = pending.get(policies);
        if (!list) pending.set(policies, (list = []));
        let g = list.find((x) => x.stamps === stamps && x.watch === watch);
        if (!g) list.push((g = { policies, stamps, watch, waiters: [] }));
        g.waiters.push({ resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}

/** IETF RateLimit draft headers for every policy, plus GitHub-style X-RateLimit-* for the tightest. */
export function rateLimitHeaders(
  states: PolicyState[],
  nowSec = Math.floor(Date.now() / 1000),
): Record<string, string> {
  if (states.length === 0) return {};
  const tightest = states.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.resetSec > a.resetSec) ? b : a,
  );
  return {
    'RateLimit-Policy': states.map((s) => `"${s.policy.name}";q=${s.policy.limit};w=${s.policy.windowSec}`).join(', '),
    RateLimit: states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${s.resetSec}`).join(', '),
    'X-RateLimit-Limit': String(tightest.policy.limit),
    'X-RateLimit-Remaining': String(tightest.remaining),
    'X-RateLimit-Reset': String(nowSec + tightest.resetSec),
  };
}
