import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Scope } from '../../lib/scope.js';
import type {
  CreateReportInput,
  ExecutionRow,
  ListReportsQuery,
  ReportRow,
  ScheduleRow,
  UpdateReportInput,
} from './reports.types.js';

/** A report with what its pages show next to it: the schedule and the latest execution. */
export interface ReportWithState extends ReportRow {
  schedule: ScheduleRow | null;
  last_execution: Pick<ExecutionRow, 'id' | 'status' | 'trigger' | 'row_count' | 'created_at' | 'finished_at'> | null;
}

const WITH_STATE = `
  SELECT r.*, CASE WHEN s.report_id IS NULL THEN NULL ELSE to_jsonb(s) END AS schedule_json,
    CASE WHEN e.id IS NULL THEN NULL ELSE to_jsonb(e) END AS last_execution_json
  FROM reports r
  LEFT JOIN report_schedules s ON s.report_id = r.id
  LEFT JOIN LATERAL (
    SELECT x.id, x.status, x.trigger, x.row_count, x.created_at, x.finished_at FROM report_executions x
    WHERE x.report_id = r.id ORDER BY x.created_at DESC, x.id DESC LIMIT 1) e ON true`;

type StateRow = ReportRow & {
  schedule_json: Record<string, unknown> | null;
  last_execution_json: Record<string, unknown> | null;
};

const toDate = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));

function withState(r: StateRow): ReportWithState {
  const { schedule_json: s, last_execution_json: e, ...report } = r;
  return {
    ...report,
    schedule: s
      ? {
          ...(s as unknown as ScheduleRow),
          next_run_at: new Date(s.next_run_at as string),
          last_run_at: toDate(s.last_run_at),
          created_at: new Date(s.created_at as string),
          updated_at: new Date(s.updated_at as string),
        }
      : null,
    last_execution: e
      ? {
          id: e.id as string,
          status: e.status as ExecutionRow['status'],
          trigger: e.trigger as ExecutionRow['trigger'],
          row_count: e.row_count as number | null,
          created_at: new Date(e.created_at as string),
          finished_at: toDate(e.finished_at),
        }
      : null,
  };
}

export function createReportsRepository(db: Queryable) {
  return {
    async insert(
      scope: Scope,
      input: CreateReportInput & { created_by: string | null },
      q: Queryable = db,
    ): Promise<ReportRow> {
      const { rows } = await q.query<ReportRow>(
        `INSERT INTO reports (id, org_id, environment, name, type, description, category, data_source, filters, tags, retention_days, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
        [
          newId('rpt'),
          scope.orgId,
          scope.environment,
          input.name,
          input.type,
          input.description ?? null,
          input.category ?? null,
          JSON.stringify(input.data_source ?? {}),
          JSON.stringify(input.filters ?? {}),
          input.tags ?? [],
          input.retention_days ?? 90,
          input.created_by,
        ],
      );
      return rows[0];
    },

    async get(scope: Scope, id: string, q: Queryable = db, lock = false): Promise<ReportRow | null> {
      const { rows } = await q.query<ReportRow>(
        `SELECT * FROM reports WHERE id = $1 AND org_id = $2 AND environment = $3${lock ? ' FOR UPDATE' : ''}`,
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },

    /** Workers: the report an execution or a tick names, whoever owns it. */
    async getById(id: string, q: Queryable = db): Promise<ReportRow | null> {
      const { rows } = await q.query<ReportRow>('SELECT * FROM reports WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    async getWithState(scope: Scope, id: string): Promise<ReportWithState | null> {
      const { rows } = await db.query<StateRow>(
        `${WITH_STATE} WHERE r.id = $1 AND r.org_id = $2 AND r.environment = $3`,
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ? withState(rows[0]) : null;
    },

    async list(scope: Scope, query: ListReportsQuery): Promise<{ rows: ReportWithState[]; total: number }> {
      const where = ['r.org_id = $1', 'r.environment = $2'];
      const params: unknown[] = [scope.orgId, scope.environment];
      if (query.type) {
        params.push(query.type);
        where.push(`r.type = $${params.length}`);
      }
      if (query.category) {
        params.push(query.category);
        where.push(`r.category = $${params.length}`);
      }
      if (query.search) {
        params.push(`%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        const n = `$${params.length}`;
        where.push(
          `(r.name ILIKE ${n} OR coalesce(r.description, '') ILIKE ${n} OR EXISTS (SELECT 1 FROM unnest(r.tags) t WHERE t ILIKE ${n}))`,
        );
      }
      const w = where.join(' AND ');
      const [page, count] = await Promise.all([
        db.query<StateRow>(
          `${WITH_STATE} WHERE ${w} ORDER BY r.created_at DESC, r.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, query.per_page, (query.page - 1) * query.per_page],
        ),
        db.query<{ n: number }>(`SELECT count(*) AS n FROM reports r WHERE ${w}`, params),
      ]);
      return { rows: page.rows.map(withState), total: count.rows[0].n };
    },

    async update(scope: Scope, id: string, patch: UpdateReportInput, q: Queryable = db): Promise<ReportRow | null> {
      const sets: string[] = [];
      const params: unknown[] = [id, scope.orgId, scope.environment];
      for (const [col, v] of Object.entries(patch)) {
        if (v === undefined) continue;
        params.push(col === 'data_source' || col === 'filters' ? JSON.stringify(v) : v);
        sets.push(`${col} = $${params.length}`);
      }
      sets.push('updated_at = now()');
      const { rows } = await q.query<ReportRow>(
        `UPDATE reports SET ${sets.join(', ')} WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *`,
        params,
      );
      return rows[0] ?? null;
    },

    /** Deletes the report (its schedule and executions cascade); returns the files they used. */
    async delete(scope: Scope, id: string, q: Queryable): Promise<{ deleted: boolean; fileKeys: string[] }> {
      const files = await q.query<{ file_key: string }>(
        'SELECT DISTINCT file_key FROM report_executions WHERE report_id = $1 AND org_id = $2 AND environment = $3 AND file_key IS NOT NULL',
        [id, scope.orgId, scope.environment],
      );
      const res = await q.query('DELETE FROM reports WHERE id = $1 AND org_id = $2 AND environment = $3', [
        id,
        scope.orgId,
        scope.environment,
      ]);
      return { deleted: res.rowCount > 0, fileKeys: files.rows.map((r) => r.file_key) };
    },

    /** Project ids among `ids` that exist in the scope. */
    async existingProjects(scope: Scope, ids: string[]): Promise<Set<string>> {
      const { rows } = await db.query<{ id: string }>(
        'SELECT id FROM projects WHERE id = ANY($1::text[]) AND org_id = $2 AND environment = $3',
        [ids, scope.orgId, scope.environment],
      );
      return new Set(rows.map((r) => r.id));
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
