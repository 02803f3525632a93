import { errors } from '../../lib/errors.js';
import type { Scope } from '../../lib/scope.js';
import type { ActivityRepository } from './activity.repository.js';
import { STAGES } from './documents.types.js';

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
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    d,
  );
}

const bump = (m: Record<string, number>, k: string, n: number) => {
  m[k] = (m[k] ?? 0) + n;
};

/**
 * What a person checks first: documents per day by status, type and source, and per stage what
 * is in progress and what failed. Aggregates of the caller's organization and environment only.
 */
export function createActivityService(repo: ActivityRepository) {
  return {
    async activity(scope: Scope, o: ActivityOptions = {}) {
      const days = o.days ?? 30;
      const tz = o.tz ?? 'UTC';
      if (!validZone(tz)) throw errors.invalidField('tz', `unknown time zone "${tz}"`);
      // Calendar days back from today's date in the zone (not 24-hour steps, which DST would skew).
      const [y, m, d] = dayString(new Date(), tz).split('-').map(Number);
      const dates = Array.from({ length: days }, (_, i) =>
        new Date(Date.UTC(y, m - 1, d - (days - 1 - i))).toISOString().slice(0, 10),
      );
      const first = dates[0];
      const [perDay, stages] = await Promise.all([
        repo.perDay(scope, tz, first, o.projectId),
        repo.perStage(scope, o.projectId),
      ]);
      const series = new Map<string, ActivityDay>();
      for (const date of dates) series.set(date, { date, total: 0, by_status: {}, by_type: {}, by_source: {} });
      const totals = {
        total: 0,
        by_status: {} as Record<string, number>,
        by_type: {} as Record<string, number>,
        by_source: {} as Record<string, number>,
      };
      for (const r of perDay) {
        const { n } = r;
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
      for (const s of STAGES) byStage[s] = { in_progress: 0, failed: 0 };
      for (const r of stages) {
        const key = r.stage ?? 'unknown';
        byStage[key] ??= { in_progress: 0, failed: 0 };
        byStage[key][r.state] += r.n;
      }
      return { days, tz, since: first, series: [...series.values()], totals, stages: byStage };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
