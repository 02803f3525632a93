/**
 * Why a template did or did not apply to a document: every template of the organisation is
 * evaluated against the document's text as templates see it (the PDF's layout text), with each
 * keyword's hit or miss, and the template that applies is run with a per-field account. It is
 * computed now, with the templates as they are now, so a user can edit a template and look again
 * before reprocessing; the template used when the document was extracted is reported beside it.
 */
import { errors } from '../../lib/errors.js';
import { RegexBudget } from '../../lib/user-regex/index.js';
import { evaluateTemplates, rankMatches, runTemplate, type TemplateArea } from '../../pipeline/extract/index.js';
import { layoutAreaText, layoutText } from '../../pipeline/parse/index.js';
import type { Scope } from '../../lib/scope.js';
import type { TemplateDef } from '../../pipeline/extract/template-schema.js';
import type { DocumentsRepository } from '../documents/documents.repository.js';
import type { TemplatesRepository } from './templates.repository.js';

/** Budget for one trace: every template's keywords plus one template run. */
const TRACE_BUDGET_MS = 2000;

export interface TraceDeps {
  documents: Pick<DocumentsRepository, 'getForTrace'>;
  templates: Pick<TemplatesRepository, 'forExtraction'>;
}

export async function traceDocument(deps: TraceDeps, scope: Scope, id: string) {
  const doc = await deps.documents.getForTrace(scope, id);
  if (!doc) throw errors.notFound('Document');
  const tpl = await deps.templates.forExtraction(scope);
  const defs = tpl.map((t) => ({ ...t.definition, id: t.id }));
  const versions = new Map(tpl.map((t) => [t.id, t.version]));
  const base = {
    document_id: doc.id,
    status: doc.status,
    extracted_with: doc.template_id ? { template_id: doc.template_id, template_version: doc.template_version } : null,
    templates_considered: defs.length,
  };
  if (doc.text_content === null) {
    return {
      ...base,
      text_source: null,
      note: `the document has no text yet (status ${doc.status})`,
      templates: [],
      chosen: null,
    };
  }
  const text = doc.layout ? layoutText(doc.layout, doc.text_content) : doc.text_content;
  const budget = new RegexBudget(TRACE_BUDGET_MS);
  const traces = evaluateTemplates(defs, text, { budget, full: true });
  const ranked = rankMatches(traces);
  const fallback =
    ranked.length === 0 && doc.default_template_id
      ? (defs.find((d) => d.id === doc.default_template_id) ?? null)
      : null;
  const chosen = ranked[0] ?? fallback;
  const layout = doc.layout;
  const run = chosen
    ? runTemplate(chosen, text, {
        budget,
        ...(layout ? { areaText: (a: TemplateArea) => layoutAreaText(layout, a) } : {}),
      })
    : null;
  return {
    ...base,
    text_source: doc.layout ? 'layout' : 'text',
    ...(budget.exhausted ? { note: 'the time budget ran out; later templates or fields were not evaluated' } : {}),
    templates: traces.map((t) => ({
      id: t.template.id ?? null,
      name: t.template.name,
      issuer: t.template.issuer,
      priority: t.template.priority ?? 5,
      version: (t.template.id && versions.get(t.template.id)) ?? null,
      matched: t.matched,
      ...(t.reason ? { reason: t.reason } : {}),
      keywords: t.keywords,
      exclude_keywords: t.exclude_keywords,
    })),
    matched: ranked.map((t) => t.id),
    chosen:
      chosen && run
        ? {
            id: chosen.id ?? null,
            name: chosen.name,
            why:
              ranked.length > 0
                ? ranked.length > 1
                  ? `matched; ${ranked.length} templates matched and this one ranks first (priority, then more keywords, then age)`
                  : 'matched'
                : "the project's default template (no template matched)",
            fields: run.trace,
            values: Object.fromEntries(Object.entries(run.fields).map(([k, f]) => [k, f.value])),
            missing_required: run.missingRequired,
            warnings: run.warnings,
          }
        : null,
  };
}

/**
 * One template (saved or still being edited) against one document: whether its keywords match
 * and, matched or not, what each field would extract. Nothing is stored.
 */
export async function testTemplate(deps: TraceDeps, scope: Scope, id: string, def: TemplateDef) {
  const doc = await deps.documents.getForTrace(scope, id);
  if (!doc) throw errors.notFound('Document');
  const base = {
    document_id: doc.id,
    template: { id: (def as { id?: string }).id ?? null, name: def.name, issuer: def.issuer },
  };
  if (doc.text_content === null) {
    return {
      ...base,
      text_source: null,
      note: `the document has no text yet (status ${doc.status})`,
      matched: false,
      fields: [],
      values: {},
      missing_required: [],
      warnings: [],
    };
  }
  const text = doc.layout ? layoutText(doc.layout, doc.text_content) : doc.text_content;
  const budget = new RegexBudget(TRACE_BUDGET_MS);
  const [trace] = evaluateTemplates([def], text, { budget, full: true });
  const layout = doc.layout;
  const run = runTemplate(def, text, {
    budget,
    ...(layout ? { areaText: (a: TemplateArea) => layoutAreaText(layout, a) } : {}),
  });
  return {
    ...base,
    text_source: doc.layout ? 'layout' : 'text',
    ...(budget.exhausted ? { note: 'the time budget ran out; later fields were not evaluated' } : {}),
    matched: trace.matched,
    ...(trace.reason ? { reason: trace.reason } : {}),
    keywords: trace.keywords,
    exclude_keywords: trace.exclude_keywords,
    fields: run.trace,
    values: Object.fromEntries(Object.entries(run.fields).map(([k, f]) => [k, f.value])),
    missing_required: run.missingRequired,
    warnings: run.warnings,
  };
}
