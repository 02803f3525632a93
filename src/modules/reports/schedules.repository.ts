import type { Queryable } from '../../db/client.js';
import type { ScheduleSpec } from './schedule-math.js';
import type { ReportRow, ScheduleRow } from './reports.types.js';

export function createSchedulesRepository(db: Queryable) {
  return {
    /** Creates or replaces the report's schedule; a replacement gets the next version. */
    async upsert(
      reportId: string,
      spec: Required<Pick<ScheduleSpec, 'frequency' | 'time' | 'timezone'>> &
        Pick<ScheduleSpec, 'day_of_week' | 'day_of_month'>,
      nextRunAt: Date,
      createdBy: string | null,
      q: Queryable = db,
    ): Promise<{ row: ScheduleRow; created: boolean }> {
      const { rows } = await q.query<ScheduleRow & { created: boolean }>(
        `INSERT INTO report_schedules (report_id, frequency, time, timezone, day_of_week, day_of_month, next_run_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (report_id) DO UPDATE SET frequency = EXCLUDED.frequency, time = EXCLUDED.time, timezone = EXCLUDED.timezone,
           day_of_week = EXCLUDED.day_of_week, day_of_month = EXCLUDED.day_of_month, next_run_at = EXCLUDED.next_run_at,
           version = report_schedules.version + 1, updated_at = now()
         RETURNING *, (xmax = 0) AS created`,
        [
          reportId,
          spec.frequency,
          spec.time,
          spec.timezone,
          spec.day_of_week ?? null,
          spec.day_of_month ?? null,
          nextRunAt,
          createdBy,
        ],
      );
      const { created, ...row } = rows[0];
      return { row, created };
    },

    async get(reportId: string, q: Queryable = db): Promise<ScheduleRow | null> {
      const { rows } = await q.query<ScheduleRow>('SELECT * FROM report_schedules WHERE report_id = $1', [reportId]);
      return rows[0] ?? null;
    },

    async delete(reportId: string, q: Queryable = db): Promise<boolean> {
      const res = await q.query('DELETE FROM report_schedules WHERE report_id = $1', [reportId]);
      return res.rowCount > 0;
    },

    /** The schedule and its report, the schedule row locked until the transaction ends. */
    async lock(q: Queryable, reportId: string): Promise<{ schedule: ScheduleRow; report: ReportRow } | null> {
      const { rows } = await q.query<{ s: ScheduleRow; r: ReportRow }>(
        `SELECT to_jsonb(s) AS s, to_jsonb(r) AS r FROM report_schedules s JOIN reports r ON r.id = s.report_id
         WHERE s.report_id = $1 FOR UPDATE OF s`,
        [reportId],
      );
      if (!rows[0]) return null;
      const s = rows[0].s;
      return {
        schedule: {
          ...s,
          next_run_at: new Date(s.next_run_at),
          last_run_at: s.last_run_at ? new Date(s.last_run_at) : null,
        },
        report: rows[0].r,
      };
    },

    async advance(
      q: Queryable,
      reportId: string,
      v: { nextRunAt: Date; lastRunAt: Date; periodKey: string; executionId: string | null },
    ): Promise<void> {
      await q.query(
        `UPDATE report_schedules SET next_run_at = $2, last_run_at = $3, last_period_key = $4,
           last_execution_id = coalesce($5, last_execution_id), updated_at = now() WHERE report_id = $1`,
        [reportId, v.nextRunAt, v.lastRunAt, v.periodKey, v.executionId],
      );
    },

    /** Schedules whose next run is overdue by more than the grace: their tick was lost. */
    async overdue(before: Date, limit: number): Promise<{ report_id: string }[]> {
      const { rows } = await db.query<{ report_id: string }>(
        'SELECT report_id FROM report_schedules WHERE next_run_at < $1 ORDER BY next_run_at LIMIT $2',
        [before, limit],
      );
      return rows;
    },

    /** Every schedule, in pages (report_id order), for re-asserting the job schedulers. */
    async page(afterReportId: string, limit: number): Promise<ScheduleRow[]> {
      const { rows } = await db.query<ScheduleRow>(
        'SELECT * FROM report_schedules WHERE report_id > $1 ORDER BY report_id LIMIT $2',
        [afterReportId, limit],
      );
      return rows;
    },
  };
}

export type SchedulesRepository = ReturnType<typeof createSchedulesRepository>;
