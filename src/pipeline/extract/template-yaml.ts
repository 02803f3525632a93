/**
 * Import of invoice2data templates. A file holds one template (the invoice2data convention), a
 * list of templates, or several `---`-separated documents; JSON files are read as JSON. Plain
 * YAML scalars are typed the way PyYAML (which invoice2data uses) types them: `yes`/`on` are
 * true but `y` is a string, `04080176` is a string (not octal), `0123` is octal 83, and
 * `2023-02-18` is a date, kept here as that string. A key given twice keeps its last value, as
 * in PyYAML, with a warning.
 */
import { isScalar, parseAllDocuments, visit, type Document } from 'yaml';
import type { TemplateDef, TemplateIssue } from './template-schema.js';
import { validateTemplate } from './template-validate.js';

/** Largest template text accepted (templates are small; this bounds parser work). */
export const MAX_TEMPLATE_YAML_CHARS = 256 * 1024;

/** Options for {@link parseTemplateYaml}. */
export interface ParseTemplateYamlOptions {
  /** Name for a single template without `name` (typically the file name without extension). Default: its issuer. */
  name?: string;
  /** Unknown keys are errors instead of warnings. Default false (invoice2data ignores them). */
  strict?: boolean;
}

export type ParseTemplateYamlResult =
  { ok: true; templates: TemplateDef[]; warnings: TemplateIssue[] } | { ok: false; errors: TemplateIssue[] };

const PY_NULL = /^(?:~|null|Null|NULL|)$/;
const PY_TRUE = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const PY_FALSE = /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/;
const PY_INT = /^[-+]?(?:0b[01_]+|0[0-7_]+|0|[1-9][0-9_]*|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const PY_FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const PY_DATE = /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})$/;

function sexagesimal(s: string): number {
  return s.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

/** The value PyYAML's implicit resolvers give a plain scalar. */
function resolvePlain(s: string): unknown {
  if (PY_NULL.test(s)) return null;
  if (PY_TRUE.test(s)) return true;
  if (PY_FALSE.test(s)) return false;
  if (PY_INT.test(s)) {
    const sign = s.startsWith('-') ? -1 : 1;
    const t = s.replace(/^[-+]/, '').replace(/_/g, '');
    if (t.startsWith('0b')) return sign * Number.parseInt(t.slice(2), 2);
    if (t.startsWith('0x')) return sign * Number.parseInt(t.slice(2), 16);
    if (t.includes(':')) return sign * sexagesimal(t);
    if (t.length > 1 && t.startsWith('0')) return sign * Number.parseInt(t, 8);
    return sign * Number(t);
  }
  if (PY_FLOAT.test(s)) {
    const t = s.replace(/_/g, '');
    if (/inf/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
    if (/nan/i.test(t)) return Number.NaN;
    if (t.includes(':')) return (t.startsWith('-') ? -1 : 1) * sexagesimal(t.replace(/^[-+]/, ''));
    return Number(t);
  }
  const d = PY_DATE.exec(s);
  if (d) return `${d[1]}-${d[2].padStart(2, '0')}-${d[3].padStart(2, '0')}`;
  return s;
}

/** Types the plain scalar values of a document read with the failsafe schema; reports duplicate keys. */
function typeScalars(doc: Document, warnings: TemplateIssue[]): void {
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const k = isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(k))
          warnings.push({
            path: 'yaml',
            message: `key "${String(k)}" appears twice in a mapping; the last one is used (as in PyYAML)`,
          });
        seen.add(k);
      }
    },
    Scalar(key, node) {
      if (key === 'key' || node.type !== 'PLAIN' || typeof node.value !== 'string') return;
      node.value = resolvePlain(node.value);
    },
  });
}

function readValues(text: string, warnings: TemplateIssue[]): { values: unknown[]; errors: TemplateIssue[] } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const v: unknown = JSON.parse(text);
      return { values: Array.isArray(v) ? v : [v], errors: [] };
    } catch {
      // Not JSON after all (YAML flow style also starts with { or [): read it as YAML.
    }
  }
  const docs = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: false, schema: 'failsafe' });
  if (!Array.isArray(docs)) return { values: [], errors: [{ path: '(root)', message: 'the text has no document' }] };
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
      typeScalars(doc, warnings);
      // Alias expansion is capped so a "billion laughs" document cannot blow up memory.
      const v: unknown = doc.toJS({ maxAliasCount: 100 });
      if (Array.isArray(v)) values.push(...v);
      else if (v !== null && v !== undefined) values.push(v);
    } catch (e) {
      errors.push({ path: 'yaml', message: (e as Error).message });
    }
  }
  return { values, errors };
}

/** Parses and validates one template file (YAML or JSON). */
export function parseTemplateYaml(text: string, opts: ParseTemplateYamlOptions = {}): ParseTemplateYamlResult {
  if (typeof text !== 'string' || text.trim() === '') {
    return { ok: false, errors: [{ path: '(root)', message: 'the template text is empty' }] };
  }
  if (text.length > MAX_TEMPLATE_YAML_CHARS) {
    return {
      ok: false,
      errors: [{ path: '(root)', message: `the template text is larger than ${MAX_TEMPLATE_YAML_CHARS} characters` }],
    };
  }
  const warnings: TemplateIssue[] = [];
  const { values, errors } = readValues(text, warnings);
  if (errors.length > 0) return { ok: false, errors };
  if (values.length === 0) return { ok: false, errors: [{ path: '(root)', message: 'the text contains no template' }] };

  const templates: TemplateDef[] = [];
  const single = values.length === 1;
  values.forEach((v, i) => {
    const r = validateTemplate(v, {
      pathPrefix: single ? '' : `[${i}]`,
      name: single ? opts.name : undefined,
      strict: opts.strict,
    });
    if (r.ok) {
      templates.push(r.template);
      warnings.push(...r.warnings);
    } else errors.push(...r.errors);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, templates, warnings };
}
