import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { Scope } from '../../lib/scope.js';
import {
  DEFAULT_CLASSIFICATION_THRESHOLD,
  type CreateProjectInput,
  type ListProjectsQuery,
  type ProjectRow,
  type UpdateProjectInput,
} from './projects.types.js';

/** Lower-case letters and digits: an address's random part survives any mail system's case folding. */
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * `<slug of the name>-<12 random base36 characters>` (62 bits: not guessable, so the address is
 * the credential that lets mail in).
 */
export function newInboundLocalPart(name: string): string {
  const slug =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 24)
      .replace(/-+$/, '') || 'project';
  let rand = '';
  while (rand.length < 12) {
    // 252 = 7 × 36: bytes above it are dropped so every character is equally likely.
    for (const b of randomBytes(16)) if (b < 252 && rand.length < 12) rand += BASE36[b % 36];
  }
  return `${slug}-${rand}`;
}

const SORTS: Record<string, string> = { name: 'lower(name)', created_at: 'created_at', updated_at: 'updated_at' };

export function createProjectsRepository(db: Queryable) {
  return {
    async insert(scope: Scope, input: CreateProjectInput): Promise<ProjectRow> {
      const { rows } = await db.query<ProjectRow>(
        `INSERT INTO projects (id, org_id, environment, name, description, color, icon, auto_classify, auto_extract,
           default_template_id, retention_days, allowed_file_types, classification_threshold,
           inbound_local_part, inbound_allowed_senders, inbound_authentication, inbound_consume, on_near_duplicate)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18) RETURNING *`,
        [
          newId('prj'),
          scope.orgId,
          scope.environment,
          input.name,
          input.description ?? null,
          input.color ?? null,
          input.icon ?? null,
          input.auto_classify ?? true,
          input.auto_extract ?? true,
          input.default_template_id ?? null,
          input.retention_days ?? null,
          JSON.stringify(input.allowed_file_types ?? []),
          input.classification_threshold ?? DEFAULT_CLASSIFICATION_THRESHOLD,
          newInboundLocalPart(input.name),
          JSON.stringify(input.inbound_allowed_senders ?? []),
          input.inbound_authentication ?? 'none',
          input.inbound_consume ?? 'attachments',
          input.on_near_duplicate ?? 'keep',
        ],
      );
      return rows[0];
    },
    async get(scope: Scope, id: string, q: Queryable = db): Promise<ProjectRow | null> {
      const { rows } = await q.query<ProjectRow>(
        'SELECT * FROM projects WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    async list(scope: Scope, query: ListProjectsQuery): Promise<{ rows: ProjectRow[]; total: number }> {
      const where = ['org_id = $1', 'environment = $2'];
      const params: unknown[] = [scope.orgId, scope.environment];
      if (query.status) {
        params.push(query.status);
        where.push(`status = $${params.length}`);
      } else if (!query.include_archived) where.push(`status = 'active'`);
      if (query.search) {
        params.push(`%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where.push(`(name ILIKE $${params.length} OR coalesce(description, '') ILIKE $${params.length})`);
      }
      const order = `${SORTS[query.sort ?? 'created_at']} ${query.order === 'asc' ? 'ASC' : 'DESC'}, id ${query.order === 'asc' ? 'ASC' : 'DESC'}`;
      const whereSql = where.join(' AND ');
      // One round trip: the window count rides along with the page (the hot path of the API).
      const page = await db.query<ProjectRow & { total_count: number }>(
        `SELECT *, count(*) OVER () AS total_count FROM projects WHERE ${whereSql} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, query.offset],
      );
      let total = page.rows[0]?.total_count;
      if (total === undefined) {
        // An empty page (offset past the end) carries no count: ask separately.
        total = (await db.query<{ n: number }>(`SELECT count(*) AS n FROM projects WHERE ${whereSql}`, params)).rows[0]
          .n;
      }
      const rows = page.rows.map(({ total_count: _t, ...r }) => r as ProjectRow);
      return { rows, total };
    },
    async update(scope: Scope, id: string, patch: UpdateProjectInput): Promise<ProjectRow | null> {
      const sets: string[] = [];
      const params: unknown[] = [id, scope.orgId, scope.environment];
      for (const [col, v] of Object.entries(patch)) {
        if (v === undefined) continue;
        params.push(Array.isArray(v) ? JSON.stringify(v) : v);
        sets.push(`${col} = $${params.length}`);
      }
      sets.push('updated_at = now()');
      const { rows } = await db.query<ProjectRow>(
        `UPDATE projects SET ${sets.join(', ')} WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *`,
        params,
      );
      return rows[0] ?? null;
    },
    /** A new receiving address; the old one matches nothing from this statement on. */
    async rotateInbound(scope: Scope, id: string): Promise<ProjectRow | null> {
      const found = await db.query<Pick<ProjectRow, 'name'>>(
        'SELECT name FROM projects WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      const current = found.rows[0];
      if (!current) return null;
      const { rows } = await db.query<ProjectRow>(
        `UPDATE projects SET inbound_local_part = $4, updated_at = now()
         WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *`,
        [id, scope.orgId, scope.environment, newInboundLocalPart(current.name)],
      );
      return rows[0] ?? null;
    },
    /** The project a receiving address's local part belongs to, in whichever organization and environment. */
    async byInboundLocalPart(localPart: string): Promise<ProjectRow | null> {
      const { rows } = await db.query<ProjectRow>('SELECT * FROM projects WHERE inbound_local_part = $1', [
        localPart.toLowerCase(),
      ]);
      return rows[0] ?? null;
    },
    /** Ids of every active project (the watched folder makes one sub-folder each). */
    async activeIds(): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(`SELECT id FROM projects WHERE status = 'active' ORDER BY id`);
      return rows.map((r) => r.id);
    },
    /** A project by id alone (the watched folder names projects by id, outside any request scope). */
    async byId(id: string): Promise<ProjectRow | null> {
      const { rows } = await db.query<ProjectRow>('SELECT * FROM projects WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    async setArchived(scope: Scope, id: string, archived: boolean): Promise<ProjectRow | null> {
      const { rows } = await db.query<ProjectRow>(
        `UPDATE projects SET status = $4, archived_at = CASE WHEN $5::boolean THEN now() ELSE NULL END, updated_at = now()
         WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *`,
        [id, scope.orgId, scope.environment, archived ? 'archived' : 'active', archived],
      );
      return rows[0] ?? null;
    },
    async delete(scope: Scope, id: string, q: Queryable = db): Promise<boolean> {
      const res = await q.query('DELETE FROM projects WHERE id = $1 AND org_id = $2 AND environment = $3', [
        id,
        scope.orgId,
        scope.environment,
      ]);
      return res.rowCount > 0;
    },
    async countDocuments(projectId: string, q: Queryable = db): Promise<number> {
      const { rows } = await q.query<{ n: number }>('SELECT count(*) AS n FROM documents WHERE project_id = $1', [
        projectId,
      ]);
      return rows[0].n;
    },
    async moveDocuments(from: string, to: string, q: Queryable): Promise<number> {
      const res = await q.query('UPDATE documents SET project_id = $2, updated_at = now() WHERE project_id = $1', [
        from,
        to,
      ]);
      return res.rowCount;
    },
    async stats(projectId: string) {
      const [byStatus, byType, totals] = await Promise.all([
        db.query<{ status: string; n: number }>(
          'SELECT status, count(*) AS n FROM documents WHERE project_id = $1 GROUP BY status',
          [projectId],
        ),
        db.query<{ type: string | null; n: number }>(
          `SELECT classification->>'type' AS type, count(*) AS n FROM documents WHERE project_id = $1 AND classification IS NOT NULL GROUP BY 1`,
          [projectId],
        ),
        db.query<{ n: number; bytes: number | null; pages: number | null; last: Date | null }>(
          `SELECT count(*) AS n, sum(size_bytes) AS bytes, sum(page_count) AS pages, max(updated_at) AS last FROM documents WHERE project_id = $1`,
          [projectId],
        ),
      ]);
      return { byStatus: byStatus.rows, byType: byType.rows, totals: totals.rows[0] };
    },
    async templateExists(scope: Scope, templateId: string): Promise<boolean> {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*) AS n FROM templates WHERE id = $1 AND org_id = $2 AND environment = $3',
        [templateId, scope.orgId, scope.environment],
      );
      return rows[0].n > 0;
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
