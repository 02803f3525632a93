import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Scope } from '../../lib/scope.js';
import type {
  ExecutionDefinition,
  ExecutionRow,
  ExecutionStatus,
  ExecutionTrigger,
  ListExecutionsQuery,
  ReportRow,
  SectionInfo,
} from './reports.types.js';

export interface NewExecution {
  report: ReportRow;
  trigger: ExecutionTrigger;
  /** Scheduled runs: 'schedule:<period key>'; manual runs get 'manual:<id>'. */
  runKey?: string;
  definition: ExecutionDefinition;
  periodFrom: Date;
  periodTo: Date;
  scheduledFor?: Date | null;
  requestedBy?: string | null;
}

export function createExecutionsRepository(db: Queryable) {
  return {
    /** Inserts a queued execution; null when one with the same run key exists (that period ran). */
    async insert(q: Queryable, e: NewExecution): Promise<ExecutionRow | null> {
      const id = newId('exe');
      const { rows } = await q.query<ExecutionRow>(
        `INSERT INTO report_executions (id, report_id, org_id, environment, run_key, trigger, report_type, definition, period_from, period_to,
           scheduled_for, requested_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (report_id, run_key) DO NOTHING RETURNING *`,
        [
          id,
          e.report.id,
          e.report.org_id,
          e.report.environment,
          e.runKey ?? `manual:${id}`,
          e.trigger,
          e.report.type,
          JSON.stringify(e.definition),
          e.periodFrom,
          e.periodTo,
          e.scheduledFor ?? null,
          e.requestedBy ?? null,
        ],
      );
      return rows[0] ?? null;
    },

    async get(scope: Scope, reportId: string, id: string): Promise<ExecutionRow | null> {
      const { rows } = await db.query<ExecutionRow>(
        'SELECT * FROM report_executions WHERE id = $1 AND report_id = $2 AND org_id = $3 AND environment = $4',
        [id, reportId, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },

    async getById(id: string, q: Queryable = db): Promise<ExecutionRow | null> {
      const { rows } = await q.query<ExecutionRow>('SELECT * FROM report_executions WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    async list(
      scope: Scope,
      reportId: string,
      query: ListExecutionsQuery,
    ): Promise<{ rows: ExecutionRow[]; total: number }> {
      const params: unknown[] = [reportId, scope.orgId, scope.environment];
      let where = 'report_id = $1 AND org_id = $2 AND environment = $3';
      if (query.status) {
        params.push(query.status);
        where += ` AND status = $${params.length}`;
      }
      const [page, count] = await Promise.all([
        db.query<ExecutionRow>(
          `SELECT * FROM report_executions WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, query.per_page, (query.page - 1) * query.per_page],
        ),
        db.query<{ n: number }>(`SELECT count(*) AS n FROM report_executions WHERE ${where}`, params),
      ]);
      return { rows: page.rows, total: count.rows[0].n };
    },

    /** Claims the execution for a run attempt; null when it already finished (or is gone). */
    async start(id: string): Promise<ExecutionRow | null> {
      const { rows } = await db.query<ExecutionRow>(
        `UPDATE report_executions SET status = 'running', started_at = now(), attempts = attempts + 1, error = NULL, updated_at = now()
         WHERE id = $1 AND status IN ('queued', 'running') RETURNING *`,
        [id],
      );
      return rows[0] ?? null;
    },

    async complete(
      q: Queryable,
      id: string,
      r: {
        rowCount: number;
        summary: Record<string, unknown>;
        sections: SectionInfo[];
        fileKey: string;
        fileBytes: number;
      },
    ): Promise<ExecutionRow | null> {
      const { rows } = await q.query<ExecutionRow>(
        `UPDATE report_executions SET status = 'completed', row_count = $2, summary = $3, sections = $4, file_key = $5, file_bytes = $6,
           finished_at = now(), updated_at = now()
         WHERE id = $1 AND status = 'running' RETURNING *`,
        [id, r.rowCount, JSON.stringify(r.summary), JSON.stringify(r.sections), r.fileKey, r.fileBytes],
      );
      return rows[0] ?? null;
    },

    async fail(q: Queryable, id: string, error: { code: string; message: string }): Promise<ExecutionRow | null> {
      const { rows } = await q.query<ExecutionRow>(
        `UPDATE report_executions SET status = 'failed', error = $2, finished_at = now(), updated_at = now()
         WHERE id = $1 AND status IN ('queued', 'running') RETURNING *`,
        [id, JSON.stringify(error)],
      );
      return rows[0] ?? null;
    },

    /** Queued or running executions untouched for a while (their job may be gone). */
    async open(olderThan: Date, limit: number): Promise<Pick<ExecutionRow, 'id' | 'status'>[]> {
      const { rows } = await db.query<Pick<ExecutionRow, 'id' | 'status'>>(
        `SELECT id, status FROM report_executions WHERE status IN ('queued', 'running') AND updated_at < $1 ORDER BY updated_at LIMIT $2`,
        [olderThan, limit],
      );
      return rows;
    },

    /** Deletes executions older than their report's retention; returns the files they used. */
    async deleteExpired(now: Date, limit: number): Promise<{ ids: string[]; fileKeys: string[] }> {
      const { rows } = await db.query<{ id: string; file_key: string | null }>(
        `DELETE FROM report_executions WHERE id IN (
           SELECT e.id FROM report_executions e JOIN reports r ON r.id = e.report_id
           WHERE e.created_at < $1::timestamptz - r.retention_days * interval '1 day' AND e.status IN ('completed', 'failed')
           ORDER BY e.created_at LIMIT $2)
         RETURNING id, file_key`,
        [now, limit],
      );
      return {
        ids: rows.map((r) => r.id),
        fileKeys: [...new Set(rows.map((r) => r.file_key).filter((k): k is string => !!k))],
      };
    },

    /** Which of the given file keys an execution still refers to. */
    async fileKeysInUse(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const { rows } = await db.query<{ file_key: string }>(
        'SELECT DISTINCT file_key FROM report_executions WHERE file_key = ANY($1::text[])',
        [keys],
      );
      return new Set(rows.map((r) => r.file_key));
    },

    async statusOf(id: string): Promise<ExecutionStatus | null> {
      const { rows } = await db.query<{ status: ExecutionStatus }>(
        'SELECT status FROM report_executions WHERE id = $1',
        [id],
      );
      return rows[0]?.status ?? null;
    },
  };
}

export type ExecutionsRepository = ReturnType<typeof createExecutionsRepository>;
