import { errors } from '../../lib/errors.js';
import { parseTemplateYaml } from '../../pipeline/extract/template-yaml.js';
import { validateTemplate } from '../../pipeline/extract/template-validate.js';
import type { TemplateDef, TemplateIssue } from '../../pipeline/extract/template-schema.js';
import type { Scope } from '../../lib/scope.js';
import { learnTemplate } from '../../pipeline/extract/learn.js';
import { layoutText } from '../../pipeline/parse/index.js';
import { testTemplate, traceDocument, type TraceDeps } from './template-trace.js';
import type { TemplateRow, TemplatesRepository } from './templates.repository.js';

function present(t: TemplateRow) {
  return {
    id: t.id,
    name: t.name,
    issuer: t.issuer,
    priority: t.priority,
    version: t.version,
    definition: t.definition,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

function invalid(what: string, issues: TemplateIssue[]) {
  const shown = issues
    .slice(0, 20)
    .map((e) => `${e.path || '(root)'} ${e.message}`)
    .join('; ');
  return errors.validation(
    `${what}: ${shown}${issues.length > 20 ? `; and ${issues.length - 20} more` : ''}`,
    issues.map((e) => ({ field: e.path || '(root)', message: e.message })),
  );
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
export function createTemplatesService(deps: { repo: TemplatesRepository; trace: TraceDeps }) {
  const { repo } = deps;
  const mustGet = async (scope: Scope, id: string) => {
    const row = await repo.get(scope, id);
    if (!row) throw errors.notFound('Template');
    return row;
  };
  return {
    async list(scope: Scope, limit: number, offset: number) {
      const { rows, total } = await repo.list(scope, limit, offset);
      return { items: rows.map(present), total };
    },
    async get(scope: Scope, id: string) {
      return present(await mustGet(scope, id));
    },
    async create(scope: Scope, input: unknown) {
      return present(await repo.insert(scope, validate(input)));
    },
    async update(scope: Scope, id: string, input: unknown) {
      const row = await repo.update(scope, id, validate(input));
      if (!row) throw errors.notFound('Template');
      return present(row);
    },
    async delete(scope: Scope, id: string) {
      await mustGet(scope, id);
      const projects = await repo.projectsDefaultingTo(id);
      if (projects.length)
        throw errors.conflict(`Template is the default of ${projects.length} project(s)`, { project_ids: projects });
      await repo.delete(scope, id);
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
        return parsed.map(({ template, warnings }) => ({
          id: null,
          name: template.name,
          issuer: template.issuer,
          priority: template.priority ?? 5,
          definition: template,
          warnings,
        }));
      }
      return repo.transaction(async (tx) => {
        const out = [];
        for (const { template, warnings } of parsed)
          out.push({ ...present(await repo.insert(scope, template, tx)), warnings });
        return out;
      });
    },
    /** Why templates did or did not apply to a document (see template-trace.ts). */
    async trace(scope: Scope, documentId: string) {
      return traceDocument(deps.trace, scope, documentId);
    },
    /**
     * Runs one template against one document without storing anything: a saved one by id, or a
     * definition being edited (validated as a save would be, so its errors show before saving).
     */
    async test(scope: Scope, documentId: string, input: { template_id?: string; template?: unknown }) {
      if ((input.template_id === undefined) === (input.template === undefined)) {
        throw errors.validation('Give template_id or template, not both', [
          { field: 'template_id', message: 'or template is required (one of them)' },
        ]);
      }
      const def =
        input.template_id !== undefined
          ? { ...(await mustGet(scope, input.template_id)).definition, id: input.template_id }
          : validate(input.template);
      return testTemplate(deps.trace, scope, documentId, def as TemplateDef);
    },
    /**
     * A template learned from a document's current fields (as corrected): keywords from the
     * issuer's stable text, one label-anchored regex per field (see pipeline/extract/learn.ts),
     * stored like any other template. 422 names each field whose value cannot be located.
     */
    async learn(scope: Scope, input: { document_id: string; name?: string }) {
      const doc = await deps.trace.documents.getForTrace(scope, input.document_id);
      if (!doc) throw errors.notFound('Document');
      if (doc.text_content === null || !doc.fields || Object.keys(doc.fields).length === 0)
        throw errors.conflict(`Document has no extracted fields to learn from (status ${doc.status})`);
      // The text templates read: a PDF's layout text, as extraction applies them to.
      const text = doc.layout ? layoutText(doc.layout, doc.text_content) : doc.text_content;
      const r = learnTemplate({
        text,
        fields: doc.fields,
        ...(input.name ? { name: input.name } : {}),
        ...(doc.classification?.type ? { documentType: doc.classification.type } : {}),
      });
      if (!r.ok)
        throw errors.unprocessable(
          `No template can be learned: ${r.missing.map((m) => `${m.field} (${m.reason})`).join('; ')}`,
          r.missing.map((m) => ({ field: `fields.${m.field}`, message: m.reason })),
        );
      const row = await repo.insert(scope, validate(r.template));
      return { ...present(row), skipped_fields: r.skipped };
    },
    /** One YAML or JSON text (kept for callers of the first version of the import). */
    async importYaml(scope: Scope, yamlText: string, name?: string) {
      return this.importFiles(scope, [{ name: name ?? '', content: yamlText }]);
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
