import type { Queryable } from '../../db/client.js';
import { errors } from '../../http/errors.js';
import type { Scope } from '../api-keys/api-keys.repository.js';

/** Options of {@link createActivityService}'s `activity`. */
export interface ActivityOptions {
  /** Days back from today (in `tz`), today included. Default 30, at most 366. */
  days?: number;
  /** IANA zone the days are cut in. Default UTC. */
  tz?: string;
  /** Only this project's documents. */
  projectId?: string;
}

export interface ActivityDay {
  date: string;
  total: number;
  by_status: Record<string, number>;
  by_type: Record<string, number>;
  by_source: Record<string, number>;
}

function validZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function dayString(d: Date, tz: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}

const bump = (m: Record<string, number>, k: string, n: number) => { m[k] = (m[k] ?? 0) + n; };

/**
 * What a person checks first: documents per day by status, type and source, and per stage what
 * is in progress and what failed. Aggregates of the caller's organization and environment only.
 */
export function createActivityService(db: Queryable) {
  return {
    async activity(scope: Scope, o: ActivityOptions = {}) {
      const days = o.days ?? 30;
      const tz = o.tz ?? 'UTC';
      if (!validZone(tz)) throw errors.invalidField('tz', `unknown time zone "${tz}"`);
      // Start of the first day in the zone: step back whole days from now and cut at that day's date.
      const first = dayString(new Date(Date.now() - (days - 1) * 86_400_000), tz);
      const params: unknown[] = [scope.orgId, scope.environment, tz, first];
      let project = '';
      if (o.projectId) { params.push(o.projectId); project = ` AND project_id = $${params.length}`; }
      const [perDay, stages] = await Promise.all([
        db.query<{ day: string; status: string; type: string; source: string; n: string | number }>(
          `SELECT to_char(created_at AT TIME ZONE $3, 'YYYY-MM-DD') AS day, status, COALESCE(classification->>'type', '') AS type, source, count(*) AS n
           FROM documents
           WHERE org_id = $1 AND environment = $2 AND created_at >= ($4::date)::timestamp AT TIME ZONE $3${project}
           GROUP BY 1, 2, 3, 4`, params),
        db.query<{ stage: string | null; state: string; n: string | number }>(
          `SELECT CASE WHEN status = 'failed' THEN error->>'stage' ELSE pipeline->>'current' END AS stage,
                  CASE WHEN status = 'failed' THEN 'failed' ELSE 'in_progress' END AS state, count(*) AS n
           FROM documents
           WHERE org_id = $1 AND environment = $2 AND status IN ('uploaded', 'processing', 'processed', 'classified', 'extracted', 'failed')
             ${o.projectId ? 'AND project_id = $3' : ''}
           GROUP BY 1, 2`, o.projectId ? [scope.orgId, scope.environment, o.projectId] : [scope.orgId, scope.environment]),
      ]);
      const series = new Map<string, ActivityDay>();
      for (let i = days - 1; i >= 0; i--) {
        const date = dayString(new Date(Date.now() - i * 86_400_000), tz);
        series.set(date, { date, total: 0, by_status: {}, by_type: {}, by_source: {} });
      }
      const totals = { total: 0, by_status: {} as Record<string, number>, by_type: {} as Record<string, number>, by_source: {} as Record<string, number> };
      for (const r of perDay.rows) {
        const n = Number(r.n);
        const day = series.get(r.day);
        const type = r.type || 'unclassified';
        for (const agg of day ? [day, totals] : [totals]) {
          agg.total += n;
          bump(agg.by_status, r.status, n);
          bump(agg.by_type, type, n);
          bump(agg.by_source, r.source, n);
        }
      }
      const byStage: Record<string, { in_progress: number; failed: number }> = {};
      for (const s of ['parse', 'embed', 'classify', 'extract']) byStage[s] = { in_progress: 0, failed: 0 };
      for (const r of stages.rows) {
        const key = r.stage ?? 'unknown';
        byStage[key] ??= { in_progress: 0, failed: 0 };
        byStage[key][r.state as 'in_progress' | 'failed'] += Number(r.n);
      }
      return { days, tz, since: first, series: [...series.values()], totals, stages: byStage };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
