import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';

export type { Redis };

/**
 * The three REDIS_URL forms:
 * - `redis://[user:pass@]host:port[/db]` (or `rediss://` for TLS): one server;
 * - `redis+sentinel://[user:pass@]host:port,host:port/mastername[/db]`: Sentinels that name the master;
 * - `redis+cluster://[user:pass@]host:port,host:port`: seed nodes of a Redis Cluster.
 * `rediss+sentinel://` and `rediss+cluster://` connect to the data nodes with TLS.
 */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | {
      kind: 'sentinel';
      sentinels: { host: string; port: number }[];
      name: string;
      db?: number;
      username?: string;
      password?: string;
      tls: boolean;
    }
  | { kind: 'cluster'; nodes: { host: string; port: number }[]; username?: string; password?: string; tls: boolean };

function hostList(s: string, defaultPort: number): { host: string; port: number }[] {
  const out = s.split(',').map((h) => {
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(h.trim());
    if (!m) throw new Error(`REDIS_URL: bad host "${h}"`);
    return { host: m[1]!.replace(/^\[|\]$/g, ''), port: m[2] ? Number(m[2]) : defaultPort };
  });
  if (out.length === 0) throw new Error('REDIS_URL: no hosts');
  return out;
}

/** Parses REDIS_URL; the multi-host forms are not WHATWG URLs (commas in the host), so by hand. */
export function parseRedisUrl(url: string): RedisTarget {
  const m = /^(rediss?)(?:\+(sentinel|cluster))?:\/\/(?:([^@/]*)@)?([^/?#]+)(\/[^?#]*)?$/.exec(url);
  if (!m) throw new Error('REDIS_URL must be redis://, rediss://, redis+sentinel:// or redis+cluster://');
  const [, scheme, mode, auth, hosts, path] = m;
  if (!mode) return { kind: 'single', url };
  const tls = scheme === 'rediss';
  let username: string | undefined;
  let password: string | undefined;
  if (auth) {
    const i = auth.indexOf(':');
    username = i < 0 ? decodeURIComponent(auth) || undefined : decodeURIComponent(auth.slice(0, i)) || undefined;
    password = i < 0 ? undefined : decodeURIComponent(auth.slice(i + 1)) || undefined;
  }
  const parts = (path ?? '').split('/').filter(Boolean);
  if (mode === 'cluster') {
    if (parts.length > 0) throw new Error('REDIS_URL: a cluster has only database 0; drop the path');
    return { kind: 'cluster', nodes: hostList(hosts!, 6379), username, password, tls };
  }
  if (!parts[0]) throw new Error('REDIS_URL: redis+sentinel:// needs the master name as the path');
  const db = parts[1] !== undefined ? Number(parts[1]) : undefined;
  if (db !== undefined && !Number.isInteger(db)) throw new Error('REDIS_URL: bad database number');
  return {
    kind: 'sentinel',
    sentinels: hostList(hosts!, 26379),
    name: decodeURIComponent(parts[0]),
    db,
    username,
    password,
    tls,
  };
}

/**
 * The key prefix actually used. On a cluster it becomes a hash tag (`{docpipe}`): every docpipe
 * key then hashes to one slot, so BullMQ's multi-key scripts and ours (rate limits read stamps and
 * counters together) never cross slots. Single Redis and Sentinel keep the plain prefix, so
 * existing installs keep their keys.
 */
export function effectivePrefix(url: string, prefix: string): string {
  return parseRedisUrl(url).kind === 'cluster' ? `{${prefix}}` : prefix;
}

/** ioredis options for the sentinel form (also usable as BullMQ connection options). */
export function sentinelOptions(t: Extract<RedisTarget, { kind: 'sentinel' }>): RedisOptions {
  return {
    sentinels: t.sentinels,
    name: t.name,
    db: t.db,
    username: t.username,
    password: t.password,
    tls: t.tls ? {} : undefined,
  };
}

/**
 * Opens a client for any REDIS_URL form. A Cluster is returned typed as Redis: the commands
 * docpipe uses (get/set/eval/defineCommand/multi/pipeline/publish/duplicate) exist on both, and
 * callers never depend on single-node-only ones (SELECT, KEYS, cross-slot MGET).
 */
export function openRedis(url: string, opts: RedisOptions = {}): Redis {
  const t = parseRedisUrl(url);
  if (t.kind === 'single') return new Redis(url, opts);
  if (t.kind === 'sentinel') return new Redis({ ...sentinelOptions(t), ...opts });
  const clusterOpts: ClusterOptions = {
    redisOptions: { username: t.username, password: t.password, tls: t.tls ? {} : undefined, ...opts },
    enableReadyCheck: opts.enableReadyCheck,
    enableOfflineQueue: opts.enableOfflineQueue,
    enableAutoPipelining: opts.enableAutoPipelining,
    lazyConnect: opts.lazyConnect,
  };
  return new Cluster(t.nodes, clusterOpts) as unknown as Redis;
}

/**
 * Command connection for the API path: fails fast when Redis is away (the request gets a 503)
 * instead of queueing commands in memory forever.
 */
export function createCommandRedis(url: string, extra: RedisOptions = {}): Redis {
  const r = openRedis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    enableAutoPipelining: true,
    connectTimeout: 5_000,
    lazyConnect: false,
    ...extra,
  });
  r.on('error', () => undefined); // reported through failing commands and /ready
  return r;
}

/** Connection for BullMQ workers and blocking commands (BullMQ requires maxRetriesPerRequest null). */
export function createWorkerRedis(url: string, extra: RedisOptions = {}): Redis {
  const r = openRedis(url, { maxRetriesPerRequest: null, enableReadyCheck: false, ...extra });
  r.on('error', () => undefined);
  return r;
}

/** Key names in one place, all under the install's (effective, see effectivePrefix) prefix. */
export function redisKeys(prefix: string) {
  return {
    stamp: (kind: 'key' | 'usr' | 'org' | 'sess' | 'prj', id: string) => `${prefix}:stamp:${kind}:${id}`,
    rate: (scope: string) => `${prefix}:rl:${scope}`,
    lastUsed: `${prefix}:apikey:last-used`,
    idempotency: (scope: string, key: string) => `${prefix}:idem:${scope}:${key}`,
    invalidateChannel: `${prefix}:auth:invalidate`,
    /** Short exclusive locks for periodic work shared by processes (see redis-lock.ts). */
    lock: (name: string) => `${prefix}:lock:${name}`,
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;
