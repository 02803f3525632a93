/**
 * YAML import of invoice2data-style templates. A file holds one template (the invoice2data
 * convention), a list of templates, or several `---`-separated documents.
 */
import { parseAllDocuments } from 'yaml';
import type { TemplateDef, TemplateIssue } from './template-schema.js';
import { validateTemplate } from './template-validate.js';

/** Largest YAML text accepted (templates are small; this bounds parser work). */
export const MAX_TEMPLATE_YAML_CHARS = 256 * 1024;

/** Options for {@link parseTemplateYaml}. */
export interface ParseTemplateYamlOptions {
  /** Name for a single template without `name` (typically the file name without extension). Default: its issuer. */
  name?: string;
}

export type ParseTemplateYamlResult =
  | { ok: true; templates: TemplateDef[]; warnings: TemplateIssue[] }
  | { ok: false; errors: TemplateIssue[] };

export function parseTemplateYaml(yamlText: string, opts: ParseTemplateYamlOptions = {}): ParseTemplateYamlResult {
  if (typeof yamlText !== 'string' || yamlText.trim() === '') {
    return { ok: false, errors: [{ path: '(root)', message: 'the YAML text is empty' }] };
  }
  if (yamlText.length > MAX_TEMPLATE_YAML_CHARS) {
    return { ok: false, errors: [{ path: '(root)', message: `the YAML text is larger than ${MAX_TEMPLATE_YAML_CHARS} characters` }] };
  }
  const docs = parseAllDocuments(yamlText, { prettyErrors: true, uniqueKeys: true });
  if (!Array.isArray(docs)) return { ok: false, errors: [{ path: '(root)', message: 'the YAML text has no document' }] };
  const errors: TemplateIssue[] = [];
  const values: unknown[] = [];
  for (const doc of docs) {
    for (const e of doc.errors) {
      const pos = e.linePos?.[0];
      const where = pos ? `line ${pos.line}, column ${pos.col}: ` : '';
      errors.push({ path: 'yaml', message: `${where}${e.message.split('\n')[0]}` });
    }
    if (doc.errors.length > 0) continue;
    try {
      // Alias expansion is capped so a "billion laughs" document cannot blow up memory.
      const v: unknown = doc.toJS({ maxAliasCount: 100 });
      if (Array.isArray(v)) values.push(...v);
      else if (v !== null && v !== undefined) values.push(v);
    } catch (e) {
      errors.push({ path: 'yaml', message: (e as Error).message });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  if (values.length === 0) return { ok: false, errors: [{ path: '(root)', message: 'the YAML text contains no template' }] };

  const templates: TemplateDef[] = [];
  const warnings: TemplateIssue[] = [];
  const single = values.length === 1;
  values.forEach((v, i) => {
    const r = validateTemplate(v, { pathPrefix: single ? '' : `[${i}]`, name: single ? opts.name : undefined });
    if (r.ok) {
      templates.push(r.template);
      warnings.push(...r.warnings);
    } else errors.push(...r.errors);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, templates, warnings };
}
