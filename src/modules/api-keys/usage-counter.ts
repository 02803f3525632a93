import type { Db } from '../../db/client.js';
import { ARRAYS_PLAN_FREE } from '../../db/client.js';
import type { Principal } from '../access/principal.js';

/**
 * Counts authenticated API requests per (organization, environment, key, UTC day) in memory and
 * adds the counts to `api_usage_daily` in one statement per interval: the request path only
 * bumps a map entry. Each process adds its own counts, so several API processes sum correctly;
 * a process that dies loses at most one interval of counts. Dashboard sessions count under the
 * key id ''.
 */
export function createUsageCounter(
  db: Db,
  opts: { intervalMs?: number; now?: () => number; onError?: (err: unknown) => void } = {},
) {
  const now = opts.now ?? Date.now;
  let pending = new Map<string, number>();
  let flushing: Promise<void> | undefined;

  const flushOnce = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    const org: string[] = [],
      env: string[] = [],
      day: string[] = [],
      key: string[] = [],
      n: number[] = [];
    // The same order in every process: concurrent flushes then cannot deadlock on row locks.
    for (const [k, count] of [...batch].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const [o, e, d, id] = k.split('\u0000');
      org.push(o);
      env.push(e);
      day.push(d);
      key.push(id);
      n.push(count);
    }
    try {
      await db.query(
        `${ARRAYS_PLAN_FREE} INSERT INTO api_usage_daily (org_id, environment, day, key_id, requests)
         SELECT u.* FROM unnest($1::text[], $2::text[], $3::date[], $4::text[], $5::bigint[]) AS u(org_id, environment, day, key_id, requests)
         JOIN organizations o ON o.id = u.org_id
         ON CONFLICT (org_id, environment, day, key_id) DO UPDATE SET requests = api_usage_daily.requests + EXCLUDED.requests`,
        [org, env, day, key, n],
      );
    } catch (err) {
      // The database is unreachable: keep the counts for the next attempt, within reason.
      if (pending.size < 100_000) for (const [k, count] of batch) pending.set(k, (pending.get(k) ?? 0) + count);
      opts.onError?.(err);
    }
  };
  const flush = (): Promise<void> => {
    flushing ??= flushOnce().finally(() => {
      flushing = undefined;
    });
    return flushing;
  };
  // The UTC day is formatted once per day, not per request (this runs on every authenticated call).
  let dayStart = 0;
  let dayEnd = 0;
  let dayText = '';
  const dayOf = (t: number): string => {
    if (t < dayStart || t >= dayEnd) {
      dayStart = t - (t % 86_400_000);
      dayEnd = dayStart + 86_400_000;
      dayText = new Date(dayStart).toISOString().slice(0, 10);
    }
    return dayText;
  };
  const timer = setInterval(() => void flush(), opts.intervalMs ?? 30_000);
  timer.unref();

  return {
    /** Counts one authenticated request. */
    count(p: Pick<Principal, 'orgId' | 'environment' | 'apiKey'>): void {
      const day = dayOf(now());
      const k = `${p.orgId}\u0000${p.environment}\u0000${day}\u0000${p.apiKey?.id ?? ''}`;
      pending.set(k, (pending.get(k) ?? 0) + 1);
    },
    flush,
    async stop(): Promise<void> {
      clearInterval(timer);
      await flushing;
      await flush();
    },
  };
}

export type UsageCounter = ReturnType<typeof createUsageCounter>;
