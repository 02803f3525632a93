// What the API shows of reports, schedules and executions (never file keys or internals).
import { isoInZone } from '../../lib/time.js';
import type { ReportWithState } from './reports.repository.js';
import { downloadPath, type ExecutionRow, type ReportRow, type ScheduleRow } from './reports.types.js';

const iso = (d: Date | string | null | undefined) => (d === null || d === undefined ? null : new Date(d).toISOString());

export function presentSchedule(s: ScheduleRow) {
  const next = new Date(s.next_run_at);
  return {
    frequency: s.frequency,
    time: s.time,
    timezone: s.timezone,
    day_of_week: s.frequency === 'weekly' ? s.day_of_week : null,
    day_of_month: s.frequency === 'monthly' ? s.day_of_month : null,
    /** UTC. */
    next_run_at: next.toISOString(),
    /** The same instant in the schedule's zone, with its offset. */
    next_run_at_local: isoInZone(next.getTime(), s.timezone),
    last_run_at: iso(s.last_run_at),
    last_execution_id: s.last_execution_id,
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
  };
}

export function presentReport(r: ReportRow | ReportWithState) {
  const state = 'schedule' in r ? r : null;
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    description: r.description,
    category: r.category,
    data_source: r.data_source,
    filters: r.filters,
    tags: r.tags,
    retention_days: r.retention_days,
    environment: r.environment,
    schedule: state?.schedule ? presentSchedule(state.schedule) : null,
    last_execution: state?.last_execution
      ? {
          id: state.last_execution.id,
          status: state.last_execution.status,
          trigger: state.last_execution.trigger,
          row_count: state.last_execution.row_count,
          created_at: iso(state.last_execution.created_at),
          finished_at: iso(state.last_execution.finished_at),
        }
      : null,
    created_by: r.created_by,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export function presentExecution(e: ExecutionRow) {
  const durationMs =
    e.started_at && e.finished_at ? new Date(e.finished_at).getTime() - new Date(e.started_at).getTime() : null;
  return {
    id: e.id,
    report_id: e.report_id,
    status: e.status,
    trigger: e.trigger,
    report_type: e.report_type,
    period: { from: iso(e.period_from), to: iso(e.period_to) },
    timezone: e.definition.timezone,
    scheduled_for: iso(e.scheduled_for),
    row_count: e.row_count,
    summary: e.summary,
    sections: (e.sections ?? []).map((s) => ({ name: s.name, title: s.title, rows: s.rows, columns: s.columns })),
    error: e.error,
    attempts: e.attempts,
    file_bytes: e.file_bytes === null ? null : Number(e.file_bytes),
    download_path: e.status === 'completed' ? downloadPath(e.report_id, e.id) : null,
    requested_by: e.requested_by,
    created_at: iso(e.created_at),
    started_at: iso(e.started_at),
    finished_at: iso(e.finished_at),
    duration_ms: durationMs,
  };
}
