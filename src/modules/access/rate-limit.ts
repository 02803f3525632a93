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
// policy and only if all pass increments them all: a rejected request consumes nothing.
// Fixed windows aligned to the epoch, using Redis' clock so every API process agrees.
// It also returns the current values of "watched" version counters (e.g. the caller's project
// list version), so caches keyed by them are validated in the same round trip.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local i = 1
local ns = tonumber(ARGV[i]); i = i + 1
for s = 1, ns do
  local v = redis.call('GET', ARGV[i]) or '0'
  if v ~= ARGV[i + 1] then return {-1} end
  i = i + 2
end
local np = tonumber(ARGV[i]); i = i + 1
local out = {0, 0}
local keys = {}
local blocked = false
local retry = 0
for p = 1, np do
  local base = ARGV[i]; local limit = tonumber(ARGV[i + 1]); local w = tonumber(ARGV[i + 2]); i = i + 3
  local win = math.floor(now / w)
  local key = base .. ':' .. win
  local count = tonumber(redis.call('GET', key) or '0')
  local reset = (win + 1) * w - now
  keys[p] = {key, w}
  if count + 1 > limit then
    blocked = true
    if reset > retry then retry = reset end
  end
  out[#out + 1] = count
  out[#out + 1] = math.ceil(reset)
end
if blocked then
  out[1] = 1
  out[2] = math.ceil(retry)
else
  for p = 1, np do
    local c = redis.call('INCR', keys[p][1])
    if c == 1 then redis.call('EXPIRE', keys[p][1], keys[p][2] + 5) end
    out[1 + 2 * p] = c
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

export function createRateLimiter(redis: Redis): RateLimiter {
  redis.defineCommand('docpipeRateCheck', { numberOfKeys: 0, lua: SCRIPT });
  const call = (redis as unknown as { docpipeRateCheck(...args: (string | number)[]): Promise<number[]> }).docpipeRateCheck.bind(redis);
  return {
    async check(policies, stamps = [], watch = []) {
      const args: (string | number)[] = [stamps.length];
      for (const s of stamps) args.push(s.key, s.expected);
      args.push(policies.length);
      for (const p of policies) args.push(p.key, p.limit, p.windowSec);
      args.push(watch.length, ...watch);
      const out = await call(...args);
      if (out[0] === -1) return { outcome: 'stale' };
      const states = policies.map((policy, idx) => {
        const count = Number(out[2 + idx * 2]);
        return { policy, remaining: Math.max(0, policy.limit - count), resetSec: Math.max(1, Number(out[3 + idx * 2])) };
      });
      const watched = out.slice(2 + policies.length * 2).map(String);
      return { outcome: out[0] === 1 ? 'limited' : 'allowed', retryAfterSec: Math.max(1, Number(out[1])), states, watched };
    },
  };
}

/** IETF RateLimit draft headers for every policy, plus GitHub-style X-RateLimit-* for the tightest. */
export function rateLimitHeaders(states: PolicyState[], nowSec = Math.floor(Date.now() / 1000)): Record<string, string> {
  if (states.length === 0) return {};
  const tightest = states.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetSec > a.resetSec) ? b : a));
  return {
    'RateLimit-Policy': states.map((s) => `"${s.policy.name}";q=${s.policy.limit};w=${s.policy.windowSec}`).join(', '),
    RateLimit: states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${s.resetSec}`).join(', '),
    'X-RateLimit-Limit': String(tightest.policy.limit),
    'X-RateLimit-Remaining': String(tightest.remaining),
    'X-RateLimit-Reset': String(nowSec + tightest.resetSec),
  };
}
