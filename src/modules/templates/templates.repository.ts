import type { Db, Queryable } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import type { TemplateDef } from '../../pipeline/extract/template-schema.js';
import type { Scope } from '../../lib/scope.js';

export interface TemplateRow {
  id: string;
  name: string;
  issuer: string | null;
  priority: number;
  definition: TemplateDef;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** A template as extraction reads it. */
export interface ExtractionTemplate {
  id: string;
  version: number;
  definition: TemplateDef;
}

/**
 * The order extraction sees an organisation's templates in (oldest first: ties in priority go to
 * the older one). The stage read in the documents repository reads them in the same order.
 */
export const EXTRACTION_ORDER = 'created_at, id';

const DEFAULT_PRIORITY = 5;

export function createTemplatesRepository(db: Db) {
  return {
    async list(scope: Scope, limit: number, offset: number): Promise<{ rows: TemplateRow[]; total: number }> {
      const { rows } = await db.query<TemplateRow & { total_count: number }>(
        `SELECT *, count(*) OVER () AS total_count FROM templates WHERE org_id = $1 AND environment = $2 ORDER BY priority DESC, name LIMIT $3 OFFSET $4`,
        [scope.orgId, scope.environment, limit, offset],
      );
      let total = rows[0]?.total_count;
      if (total === undefined)
        total = (
          await db.query<{ n: number }>('SELECT count(*) AS n FROM templates WHERE org_id = $1 AND environment = $2', [
            scope.orgId,
            scope.environment,
          ])
        ).rows[0].n;
      return { rows: rows.map(({ total_count: _t, ...r }) => r), total };
    },
    async get(scope: Scope, id: string): Promise<TemplateRow | null> {
      const { rows } = await db.query<TemplateRow>(
        'SELECT * FROM templates WHERE id = $1 AND org_id = $2 AND environment = $3',
        [id, scope.orgId, scope.environment],
      );
      return rows[0] ?? null;
    },
    async insert(scope: Scope, def: TemplateDef, q: Queryable = db): Promise<TemplateRow> {
      const { rows } = await q.query<TemplateRow>(
        `INSERT INTO templates (id, org_id, environment, name, issuer, priority, definition) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING *`,
        [
          newId('tpl'),
          scope.orgId,
          scope.environment,
          def.name,
          def.issuer,
          def.priority ?? DEFAULT_PRIORITY,
          JSON.stringify(def),
        ],
      );
      return rows[0];
    },
    /** Replaces the definition and bumps `version`, so `reprocess --missing` re-extracts. */
    async update(scope: Scope, id: string, def: TemplateDef): Promise<TemplateRow | null> {
      const { rows } = await db.query<TemplateRow>(
        `UPDATE templates SET name = $4, issuer = $5, priority = $6, definition = $7, version = version + 1, updated_at = now()
         WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *`,
        [
          id,
          scope.orgId,
          scope.environment,
          def.name,
          def.issuer,
          def.priority ?? DEFAULT_PRIORITY,
          JSON.stringify(def),
        ],
      );
      return rows[0] ?? null;
    },
    async delete(scope: Scope, id: string): Promise<boolean> {
      const res = await db.query('DELETE FROM templates WHERE id = $1 AND org_id = $2 AND environment = $3', [
        id,
        scope.orgId,
        scope.environment,
      ]);
      return (res.rowCount ?? 0) > 0;
    },
    /** Projects (any scope: ids are unique) that extract with this template by default. */
    async projectsDefaultingTo(id: string): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>('SELECT id FROM projects WHERE default_template_id = $1', [id]);
      return rows.map((r) => r.id);
    },
    /** Every template of the scope, as extraction reads them. */
    async forExtraction(scope: Scope): Promise<ExtractionTemplate[]> {
      const { rows } = await db.query<ExtractionTemplate>(
        `SELECT id, version, definition FROM templates WHERE org_id = $1 AND environment = $2 ORDER BY ${EXTRACTION_ORDER}`,
        [scope.orgId, scope.environment],
      );
      return rows;
    },
    transaction: <T>(fn: (q: Queryable) => Promise<T>) => db.tx(fn),
  };
}

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
