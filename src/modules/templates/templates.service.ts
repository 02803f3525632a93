import type { Db, Queryable } from '../../db/client.js';
import { errors } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { parseTemplateYaml } from '../../pipeline/extract/template-yaml.js';
import { validateTemplate } from '../../pipeline/extract/template-validate.js';
import type { TemplateDef, TemplateIssue } from '../../pipeline/extract/template-schema.js';
import type { Scope } from '../api-keys/api-keys.repository.js';
import { traceDocument } from './template-trace.js';

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

function invalid(what: string, issues: TemplateIssue[]) {
  const shown = issues.slice(0, 20).map((e) => `${e.path || '(root)'} ${e.message}`).join('; ');
  return errors.validation(`${what}: ${shown}${issues.length > 20 ? `; and ${issues.length - 20} more` : ''}`, issues.map((e) => ({ field: e.path || '(root)', message: e.message })));
}

/** API writes are strict: a key nobody knows is a typo to report, not to ignore. */
function validate(input: unknown): TemplateDef {
  const r = validateTemplate(input, { strict: true });
  if (!r.ok) throw invalid('Invalid template', r.errors);
  return r.template;
}

/** One file of an import: its name (used for templates without `name`) and its YAML or JSON text. */
export interface TemplateFile {
  name: string;
  content: string;
}

/** Parses every file; all or nothing, each problem prefixed with its file when there are several. */
function parseFiles(files: TemplateFile[]): Array<{ template: TemplateDef; warnings: TemplateIssue[] }> {
  const out: Array<{ template: TemplateDef; warnings: TemplateIssue[] }> = [];
  const problems: TemplateIssue[] = [];
  const prefix = (f: TemplateFile, path: string) => (files.length > 1 ? `${f.name}: ${path || '(root)'}` : path);
  for (const f of files) {
    const r = parseTemplateYaml(f.content, { name: f.name.replace(/\.(ya?ml|json)$/i, '') });
    if (!r.ok) {
      problems.push(...r.errors.map((e) => ({ path: prefix(f, e.path), message: e.message })));
      continue;
    }
    const warnings = r.warnings.map((w) => ({ path: prefix(f, w.path), message: w.message }));
    for (const t of r.templates) out.push({ template: t, warnings: r.templates.length === 1 ? warnings : warnings });
  }
  if (problems.length > 0) throw invalid('Invalid template file', problems);
  return out;
}

/** Extraction templates (invoice2data semantics). Each change bumps `version` so `reprocess --missing` re-extracts. */
export function createTemplatesService(deps: { db: Db }) {
  const { db } = deps;
  const insertWith = async (q: Queryable, scope: Scope, def: TemplateDef) => {
    const { rows } = await q.query<TemplateRow>(
      `INSERT INTO templates (id, org_id, environment, name, issuer, priority, definition) VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING *`,
      [newId('tpl'), scope.orgId, scope.environment, def.name, def.issuer, def.priority ?? 5, JSON.stringify(def)],
    );
    return present(rows[0]);
  };
  const insert = (scope: Scope, def: TemplateDef) => insertWith(db, scope, def);
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
    /**
     * Imports invoice2data templates (YAML or JSON; one file or several, each holding one or
     * more templates); all or nothing, in one transaction. With `dryRun` nothing is stored and
     * the validated definitions come back. Each result carries the warnings of its file.
     */
    async importFiles(scope: Scope, files: TemplateFile[], opts: { dryRun?: boolean } = {}) {
      const parsed = parseFiles(files);
      if (opts.dryRun) {
        return parsed.map(({ template, warnings }) => ({ id: null, name: template.name, issuer: template.issuer, priority: template.priority ?? 5, definition: template, warnings }));
      }
      return db.tx(async (tx) => {
        const out = [];
        for (const { template, warnings } of parsed) out.push({ ...(await insertWith(tx, scope, template)), warnings });
        return out;
      });
    },
    /** Why templates did or did not apply to a document (see template-trace.ts). */
    async trace(scope: Scope, documentId: string) {
      return traceDocument(db, scope, documentId);
    },
    /** One YAML or JSON text (kept for callers of the first version of the import). */
    async importYaml(scope: Scope, yamlText: string, name?: string) {
      return this.importFiles(scope, [{ name: name ?? '', content: yamlText }]);
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
