// One IMAP connection per mailbox across every worker process: whoever holds the mailbox's Redis
// lease (SET NX PX with a random token) serves it, renews it periodically and deletes it on close.
// A holder that dies stops renewing; the key expires and another worker's next attempt takes it.
// Renew and release compare the token first, so a worker never extends or drops a lease it lost.
// Pollers also announce themselves in a heartbeat set, so each can hold its fair share of the
// mailboxes (ceil(mailboxes / live pollers)) instead of the first one started taking them all.
import type { Redis } from 'ioredis';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
// Redis's clock, not the pollers': their clocks may disagree, the server's is one.
const HEARTBEAT = `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zadd', KEYS[1], now, ARGV[1])
redis.call('zremrangebyscore', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('pexpire', KEYS[1], ARGV[2])
return redis.call('zcard', KEYS[1])`;

export interface LeaseStore {
  /** True when this worker now holds the lease (or already did). */
  acquire(mailboxId: string): Promise<boolean>;
  /** True: still ours, extended. False: lost (expired and maybe taken). Throws when Redis is unreachable. */
  renew(mailboxId: string): Promise<boolean>;
  release(mailboxId: string): Promise<void>;
  /** Current holder's token, for diagnostics and tests. */
  holder(mailboxId: string): Promise<string | null>;
  /** Marks this poller alive for `presenceTtlMs`; returns how many pollers are alive (itself included). */
  heartbeat(): Promise<number>;
  /** Leaves the heartbeat set at once (a clean shutdown), so the others take over without waiting. */
  leave(): Promise<void>;
  readonly token: string;
  readonly ttlMs: number;
}

export function createLeaseStore(
  redis: Redis,
  opts: { prefix: string; token: string; ttlMs: number; presenceTtlMs?: number },
): LeaseStore {
  const key = (id: string) => `${opts.prefix}:mail:lease:${id}`;
  const pollersKey = `${opts.prefix}:mail:pollers`;
  const presenceTtlMs = opts.presenceTtlMs ?? opts.ttlMs;
  return {
    token: opts.token,
    ttlMs: opts.ttlMs,
    async acquire(id) {
      const res = await redis.set(key(id), opts.token, 'PX', opts.ttlMs, 'NX');
      if (res === 'OK') return true;
      // Our own lease survives a restart of the runner inside this process.
      return (await redis.get(key(id))) === opts.token;
    },
    async renew(id) {
      return Number(await redis.eval(RENEW, 1, key(id), opts.token, String(opts.ttlMs))) === 1;
    },
    async release(id) {
      await redis.eval(RELEASE, 1, key(id), opts.token);
    },
    holder(id) {
      return redis.get(key(id));
    },
    async heartbeat() {
      return Number(await redis.eval(HEARTBEAT, 1, pollersKey, opts.token, String(presenceTtlMs)));
    },
    async leave() {
      await redis.zrem(pollersKey, opts.token);
    },
  };
}
