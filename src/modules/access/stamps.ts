import type { Redis } from 'ioredis';
import type { RedisKeys } from '../../lib/redis.js';

/** `prj`: an organization-environment's project list version (id `org:env`). */
export type StampKind = 'key' | 'usr' | 'org' | 'sess' | 'prj';

/**
 * Version counters in Redis. A credential cached in any API process remembers the counters it
 * was loaded under; the per-request rate-limit script compares them, so a revoke or a role
 * change (which bumps the counter after committing) takes effect on the very next request
 * everywhere without a database read per request.
 */
export interface Stamps {
  read(refs: { kind: StampKind; id: string }[]): Promise<string[]>;
  bump(kind: StampKind, id: string, ttlSec?: number): Promise<void>;
  key(kind: StampKind, id: string): string;
}

export function createStamps(redis: Redis, keys: RedisKeys): Stamps {
  return {
    key: (kind, id) => keys.stamp(kind, id),
    async read(refs) {
      if (refs.length === 0) return [];
      const vals = await redis.mget(...refs.map((r) => keys.stamp(r.kind, r.id)));
      return vals.map((v) => v ?? '0');
    },
    async bump(kind, id, ttlSec) {
      const k = keys.stamp(kind, id);
      if (ttlSec) await redis.multi().incr(k).expire(k, ttlSec).exec();
      else await redis.incr(k);
    },
  };
}
