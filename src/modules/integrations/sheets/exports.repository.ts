import type { Queryable } from '../../../db/client.js';
import { newId } from '../../../lib/ids.js';
import type { Scope } from '../../../lib/scope.js';
import type { ExportRow, ListQuery } from './sheets.types.js';

/** Config columns a PUT may change. */
export const EXPORT_CONFIG_COLUMNS = [
  'project_id',
  'connection_id',
  'spreadsheet_id',
  'sheet_name',
  'columns',
  'mode',
  'write_header',
  'trigger',
  'is_active',
] as const;
export type ExportConfig = Pick<ExportRow, (typeof EXPORT_CONFIG_COLUMNS)[number]>;

const jsonCol = (k: string, v: unknown) => (k === 'columns' ? JSON.stringify(v) : v);

export function createExportsRepository(db: Queryable) {
  return {
    async insert(scope: Scope, c: ExportConfig, createdBy: string | null, q: Queryable = db): Promise<ExportRow> {
      const { rows } = await q.query<ExportRow>(
        `INSERT INTO sheets_exports (id, org_id, environment, project_id, connection_id, spreadsheet_id, sheet_name, columns, mode,
           write_header, trigger, is_active, created_by)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13) RETURNING *`,
        [
          newId('shx'),
          scope.orgId,
          scope.environment,
          c.project_id,
          c.connection_id,
          c.spreadsheet_id,
          c.sheet_name,
          JSON.stringify(c.columns),
          c.mode,
          c.write_header,
          c.trigger,
          c.is_active,
          createdBy,
        ],
      );
      return rows[0];
    },
    async list(scope: Scope, f: ListQuery): Promise<{ rows: ExportRow[]; total: number }> {
      const params: unknown[] = [scope.orgId, scope.environment];
      let where = 'org_id = $1 AND environment = $2';
      if (f.project_id) {
        params.push(f.project_id);
        where += ` AND project_id = $${params.length}`;
      }
      const { rows } = await db.query<ExportRow & { total_count: number }>(
        `SELECT *, count(*) OVER () AS total_count FROM sheets_exports WHERE ${where}
         ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, f.limit, f.offset],
      );
      let total = rows[0]?.total_count;
      if (total === undefined)
        total = (await db.query<{ n: number }>(`SELECT count(*) AS n FROM sheets_exports WHERE ${where}`, params))
          .rows[0].n;
      return { rows: rows.map(({ total_count: _t, ...r }) => r as ExportRow), total };
    },
    async get(scope: Scope, id: string, q: Queryable = db, forUpdate = false): Promise<ExportRow | null> {
      const { rows } = await q.query<ExportRow>(
        `SELECT * FROM sheets_exports WHERE id = $1 AND org_id = $2 AND environment = $3${forUpdate ? ' FOR UPDATE' : ''}`,
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    async getById(id: string, q: Queryable = db): Promise<ExportRow | null> {
      const { rows } = await q.query<ExportRow>('SELECT * FROM sheets_exports WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    /**
     * Applies a config change and clears every error and retry state: a PUT is how an operator
     * says "I fixed it, try again". The header is re-verified on the next write.
     */
    async updateConfig(id: string, patch: Partial<ExportConfig>, q: Queryable = db): Promise<ExportRow> {
      const keys = Object.keys(patch).filter((k) => (EXPORT_CONFIG_COLUMNS as readonly string[]).includes(k));
      const sets = keys.map((k, i) => `${k} = $${i + 2}`);
      const { rows } = await q.query<ExportRow>(
        `UPDATE sheets_exports SET ${[
          ...sets,
          `status = 'active'`,
          'last_error = NULL',
          'error_at = NULL',
          'consecutive_failures = 0',
          'retry_at = NULL',
          'header_verified_for = NULL',
          'header_verified_at = NULL',
          'config_version = config_version + 1',
          'updated_at = now()',
        ].join(', ')}
         WHERE id = $1 RETURNING *`,
        [id, ...keys.map((k) => jsonCol(k, patch[k as keyof ExportConfig]))],
      );
      return rows[0];
    },
    async delete(scope: Scope, id: string, q: Queryable = db): Promise<ExportRow | null> {
      const { rows } = await q.query<ExportRow>(
        'DELETE FROM sheets_exports WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    /** Active exports of a project, optionally only those with a given trigger. */
    /** Which of `projectIds` have an active after-extraction export. */
    async projectsExportingExtractions(q: Queryable, projectIds: readonly string[]): Promise<Set<string>> {
      const { rows } = await q.query<{ project_id: string }>(
        `SELECT DISTINCT project_id FROM sheets_exports WHERE project_id = ANY($1::text[]) AND is_active AND trigger = 'after_extraction'`,
        [projectIds],
      );
      return new Set(rows.map((r) => r.project_id));
    },
    async activeForProject(projectId: string, trigger?: ExportRow['trigger'], q: Queryable = db): Promise<ExportRow[]> {
      const { rows } = await q.query<ExportRow>(
        `SELECT * FROM sheets_exports WHERE project_id = $1 AND is_active${trigger ? ' AND trigger = $2' : ''} ORDER BY created_at`,
        trigger ? [projectId, trigger] : [projectId],
      );
      return rows;
    },

    // --- worker state -------------------------------------------------------------------------

    /**
     * Takes the export's write lease when it is free or expired. The lease, not a transaction,
     * serialises writers: PGlite has one connection, and no transaction may wait on Google.
     */
    async acquireLease(id: string, owner: string, ms: number): Promise<ExportRow | null> {
      const { rows } = await db.query<ExportRow>(
        `UPDATE sheets_exports SET lease_owner = $2, lease_until = now() + make_interval(secs => $3::double precision / 1000)
         WHERE id = $1 AND (lease_until IS NULL OR lease_until < now() OR lease_owner = $2) RETURNING *`,
        [id, owner, ms],
      );
      return rows[0] ?? null;
    },
    async extendLease(id: string, owner: string, ms: number): Promise<boolean> {
      const res = await db.query(
        `UPDATE sheets_exports SET lease_until = now() + make_interval(secs => $3::double precision / 1000) WHERE id = $1 AND lease_owner = $2`,
        [id, owner, ms],
      );
      return res.rowCount > 0;
    },
    async releaseLease(id: string, owner: string): Promise<void> {
      await db.query(
        'UPDATE sheets_exports SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2',
        [id, owner],
      );
    },
    /**
     * A permanent failure: stop writing until the export is updated. `configStamp` is the
     * `config_version` the writer loaded: an error found with a configuration that a PUT has
     * since replaced is not recorded against the new one.
     */
    async setError(id: string, reason: string, configVersion: number): Promise<boolean> {
      const res = await db.query(
        `UPDATE sheets_exports SET status = 'error', last_error = $2, error_at = now(), retry_at = NULL WHERE id = $1 AND config_version = $3`,
        [id, reason.slice(0, 2000), configVersion],
      );
      return res.rowCount > 0;
    },
    /** A transient failure: keep the status, remember why, and do not write before `delayMs`. */
    async setRetry(id: string, reason: string, delayMs: number): Promise<ExportRow | null> {
      const { rows } = await db.query<ExportRow>(
        `UPDATE sheets_exports SET consecutive_failures = consecutive_failures + 1, last_error = $2,
           retry_at = now() + make_interval(secs => $3::double precision / 1000) WHERE id = $1 RETURNING *`,
        [id, reason.slice(0, 2000), delayMs],
      );
      return rows[0] ?? null;
    },
    async clearFailures(id: string, q: Queryable = db): Promise<void> {
      await q.query(
        `UPDATE sheets_exports SET consecutive_failures = 0, retry_at = NULL,
           last_error = CASE WHEN status = 'active' THEN NULL ELSE last_error END
         WHERE id = $1 AND (consecutive_failures > 0 OR retry_at IS NOT NULL OR (status = 'active' AND last_error IS NOT NULL))`,
        [id],
      );
    },
    async markHeaderVerified(id: string, fingerprint: string): Promise<void> {
      await db.query('UPDATE sheets_exports SET header_verified_for = $2, header_verified_at = now() WHERE id = $1', [
        id,
        fingerprint,
      ]);
    },
  };
}

export type ExportsRepository = ReturnType<typeof createExportsRepository>;
