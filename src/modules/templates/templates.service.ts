import type { Db } from '../../db/client.js';
import { errors } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { parseTemplateYaml } from '../../pipeline/extract/template-yaml.js';
import { validateTemplate } from '../../pipeline/extract/template-validate.js';
import type { TemplateDef } from '../../pipeline/extract/template-schema.js';
import type { Scope } from '../api-keys/api-keys.repository.js';

interface TemplateRow {
  id: string;
  name: string;
  issuer: string | null;
  priority: number;
  definition: TemplateDef;
  version: number;
  created_at: Date;
  updated_at: Date;
}

function present(t: TemplateRow) {
  return { id: t.id, name: t.name, issuer: t.issuer, priority: t.priority, version: t.version, definition: t.definition, created_at: t.created_at, updated_at: t.updated_at };
}

function validate(input: unknown): TemplateDef {
  const r = validateTemplate(input);
  if (!r.ok) throw errors.validation(`Invalid template: ${r.errors.map((e) => `${e.path || '(root)'} ${e.message}`).join('; ')}`, r.errors.map((e) => ({ field: e.path || '(root)', message: e.message })));
  return r.template;
}

/** Extraction templates (invoice2data semantics). Each change bumps `version` so `reprocess --missing` re-extracts. */
export function createTemplatesService(deps: { db: Db }) {
  const { db } = deps;
  const insert = async (scope: Scope, def: TemplateDef) => {
    const { rows } = await db.query<TemplateRow>(
      `INSERT INTO templates (id, org_id, environment, name, issuer, priority, definition) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING *`,
      [newId('tpl'), scope.orgId, scope.environment, def.name, def.issuer, def.priority ?? 5, JSON.stringify(def)],
    );
    return present(rows[0]);
  };
  return {
    async list(scope: Scope, limit: number, offset: number) {
      const { rows } = await db.query<TemplateRow & { total_count: number }>(
        `SELECT *, count(*) OVER () AS total_count FROM templates WHERE org_id = $1 AND environment = $2 ORDER BY priority DESC, name LIMIT $3 OFFSET $4`,
        [scope.orgId, scope.environment, limit, offset]);
      let total = rows[0]?.total_count;
      if (total === undefined) total = (await db.query<{ n: number }>('SELECT count(*) AS n FROM templates WHERE org_id = $1 AND environment = $2', [scope.orgId, scope.environment])).rows[0].n;
      return { items: rows.map(present), total };
    },
    async get(scope: Scope, id: string) {
      const { rows } = await db.query<TemplateRow>('SELECT * FROM templates WHERE id = $1 AND org_id = $2 AND environment = $3', [id, scope.orgId, scope.environment]);
      if (!rows[0]) throw errors.notFound('Template');
      return present(rows[0]);
    },
    async create(scope: Scope, input: unknown) {
      return insert(scope, validate(input));
    },
    async update(scope: Scope, id: string, input: unknown) {
      const def = validate(input);
      const { rows } = await db.query<TemplateRow>(
        `UPDATE templates SET name = $4, issuer = $5, priority = $6, definition = $7, version = version + 1, updated_at = now()
         WHERE id = $1 AND org_id = $2 AND environment = $3 RETURNING *`,
        [id, scope.orgId, scope.environment, def.name, def.issuer, def.priority ?? 5, JSON.stringify(def)]);
      if (!rows[0]) throw errors.notFound('Template');
      return present(rows[0]);
    },
    async delete(scope: Scope, id: string) {
      await this.get(scope, id);
      const { rows } = await db.query<{ id: string }>('SELECT id FROM projects WHERE default_template_id = $1', [id]);
      if (rows.length) throw errors.conflict(`Template is the default of ${rows.length} project(s)`, { project_ids: rows.map((r) => r.id) });
      await db.query('DELETE FROM templates WHERE id = $1 AND org_id = $2 AND environment = $3', [id, scope.orgId, scope.environment]);
      return { id, deleted: true };
    },
    /** Imports one or more invoice2data-style YAML templates; all or nothing. */
    async importYaml(scope: Scope, yamlText: string, name?: string) {
      const r = parseTemplateYaml(yamlText, name ? { name } : {});
      if (!r.ok) throw errors.validation(`Invalid template YAML: ${r.errors.map((e) => `${e.path || '(root)'} ${e.message}`).join('; ')}`, r.errors.map((e) => ({ field: e.path || '(root)', message: e.message })));
      const out = [];
      for (const t of r.templates) out.push(await insert(scope, t));
      return out;
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
