/**
 * Validates and normalises a template object (from JSON or YAML). Every problem is reported
 * with its path, not just the first, so a template can be fixed in one pass.
 *
 * Errors are what would make the template wrong or unsafe (a pattern the engine cannot run, an
 * unknown type). What invoice2data itself skips with a log line (a field without a parser, an
 * option it does not know) is a warning, so its templates import as they run there; with
 * `strict`, keys nobody knows are errors (API writes, where a typo should be caught).
 */
import { compileUserRegex } from '../../lib/user-regex/index.js';
import { normaliseCurrency } from './currency.js';
import { compileDateFormat } from './dates.js';
import type {
  TemplateArea,
  TemplateDef,
  TemplateFieldSpec,
  TemplateFieldType,
  TemplateGroup,
  TemplateIssue,
  TemplateLinesRule,
  TemplateOptions,
  TemplateTable,
  TemplateValidation,
} from './template-schema.js';

const TOP_KEYS = new Set([
  'name',
  'id',
  'issuer',
  'keywords',
  'exclude_keywords',
  'document_type',
  'priority',
  'fields',
  'lines',
  'tables',
  'options',
  'required_fields',
]);
/** invoice2data keys that do not apply here (docpipe reads PDFs itself): accepted with a warning. */
const IGNORED_TOP_KEYS: Record<string, string> = {
  input_module: 'ignored: templates always see the layout text docpipe renders from the PDF (as pdftotext -layout)',
  template_name: 'ignored: the name is `name` or the file name',
};
const OPTION_KEYS = new Set([
  'currency',
  'date_formats',
  'languages',
  'decimal_separator',
  'remove_whitespace',
  'remove_accents',
  'lowercase',
  'replace',
]);
const RULE_KEYS = new Set(['start', 'end', 'line', 'first_line', 'last_line', 'skip_line', 'line_separator', 'types']);
const TABLE_KEYS = new Set(['start', 'end', 'body', 'line_separator', 'types', 'fields', 'field_separator']);
const TYPES = new Set(['int', 'float', 'date']);
const GROUPS = new Set(['sum', 'min', 'max', 'first', 'last', 'join']);
const FIELD_NAME = /^[\p{L}_][\p{L}\p{N}_.\- ]{0,63}$/u;
const MAX_PATTERNS = 500;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class Checker {
  readonly errors: TemplateIssue[] = [];
  readonly warnings: TemplateIssue[] = [];
  private patterns = 0;
  constructor(
    private readonly prefix: string,
    readonly strict: boolean,
  ) {}

  err(path: string, message: string): void {
    this.errors.push({ path: this.join(path), message });
  }
  warn(path: string, message: string): void {
    this.warnings.push({ path: this.join(path), message });
  }
  /** An unknown key: an error when strict, else ignored with a warning (as invoice2data ignores it). */
  unknown(path: string, what = 'unknown key'): void {
    if (this.strict) this.err(path, what);
    else this.warn(path, `${what}; ignored`);
  }
  /** Something invoice2data tolerates (skips or reads loosely): an error when strict, else a warning. */
  lenient(path: string, message: string): void {
    if (this.strict) this.err(path, message);
    else this.warn(path, message);
  }
  private join(path: string): string {
    if (!this.prefix) return path || '(root)';
    if (!path) return this.prefix;
    return path.startsWith('[') ? `${this.prefix}${path}` : `${this.prefix}.${path}`;
  }

  regex(path: string, v: unknown): string | null {
    if (typeof v === 'number' && Number.isFinite(v)) {
      this.warn(path, `a number; read as the text "${v}" (quote it in YAML to keep leading zeros)`);
      v = String(v);
    }
    if (typeof v !== 'string') {
      this.err(path, 'must be a string (a regular expression)');
      return null;
    }
    if (++this.patterns > MAX_PATTERNS) {
      if (this.patterns === MAX_PATTERNS + 1) this.err(path, `a template may hold at most ${MAX_PATTERNS} patterns`);
      return null;
    }
    const r = compileUserRegex(v);
    if (!r.ok) {
      this.err(path, r.message);
      return null;
    }
    return v;
  }

  /** A string or a list of strings, each a valid regex; returns the list. */
  regexList(path: string, v: unknown, required: boolean): string[] | undefined {
    if (v === undefined || v === null) {
      if (required) this.err(path, 'is required');
      return undefined;
    }
    const list = typeof v === 'string' ? [v] : v;
    if (!Array.isArray(list)) {
      this.err(path, 'must be a string or a list of strings');
      return undefined;
    }
    if (required && list.length === 0) this.err(path, 'must not be empty');
    const out: string[] = [];
    list.forEach((item, i) => {
      const r = this.regex(typeof v === 'string' ? path : `${path}[${i}]`, item);
      if (r !== null) out.push(r);
    });
    return out;
  }

  /** A pattern or a list of patterns, kept in the form given. */
  oneOrMany(path: string, v: unknown): string | string[] | undefined {
    const list = this.regexList(path, v, true);
    if (!list) return undefined;
    return typeof v === 'string' ? list[0] : list;
  }

  stringList(path: string, v: unknown): string[] | undefined {
    if (v === undefined || v === null) return undefined;
    const list = typeof v === 'string' ? [v] : v;
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || x === '')) {
      this.err(path, 'must be a string or a list of non-empty strings');
      return undefined;
    }
    return list as string[];
  }

  type(path: string, v: unknown): TemplateFieldType | undefined {
    if (v === undefined) return undefined;
    if (typeof v === 'string' && TYPES.has(v)) return v as TemplateFieldType;
    this.err(path, 'must be one of int, float, date');
    return undefined;
  }

  group(path: string, v: unknown): TemplateGroup | undefined {
    if (v === undefined) return undefined;
    if (typeof v === 'string' && GROUPS.has(v)) return v as TemplateGroup;
    this.err(path, 'must be one of sum, min, max, first, last, join');
    return undefined;
  }

  types(path: string, v: unknown): Record<string, TemplateFieldType> | undefined {
    if (v === undefined || v === null) return undefined;
    if (!isObj(v)) {
      this.err(path, 'must be a mapping of group name to int, float or date');
      return undefined;
    }
    const out: Record<string, TemplateFieldType> = {};
    for (const [k, t] of Object.entries(v)) {
      const ty = this.type(`${path}.${k}`, t);
      if (ty) out[k] = ty;
    }
    return out;
  }

  area(path: string, v: unknown): TemplateArea | undefined {
    if (!isObj(v)) {
      this.err(path, 'must be a mapping with x, y, W, H (pixels) and optional f, l (pages) and r (dpi)');
      return undefined;
    }
    const out: Partial<TemplateArea> = {};
    for (const [k, x] of Object.entries(v)) {
      if (!['f', 'l', 'x', 'y', 'W', 'H', 'r'].includes(k)) {
        this.unknown(`${path}.${k}`, 'unknown area key (f, l, x, y, W, H, r)');
        continue;
      }
      if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > 100_000)
        this.err(`${path}.${k}`, 'must be a non-negative number');
      else out[k as keyof TemplateArea] = x;
    }
    for (const k of ['x', 'y', 'W', 'H'] as const) if (v[k] === undefined) this.err(`${path}.${k}`, 'is required');
    if (out.r === 0) this.err(`${path}.r`, 'must be positive');
    return out as TemplateArea;
  }

  /** One lines rule; `defaults` are keys written next to `rules` (they apply to every rule). */
  rule(path: string, v: unknown, defaults: Obj = {}): TemplateLinesRule | null {
    if (!isObj(v)) {
      this.err(path, 'must be a mapping with start, end and line');
      return null;
    }
    const merged: Obj = { ...defaults, ...v };
    for (const k of Object.keys(v)) if (!RULE_KEYS.has(k)) this.unknown(`${path}.${k}`);
    const before = this.errors.length;
    const rule: Partial<TemplateLinesRule> = {};
    for (const k of ['start', 'end'] as const) {
      if (merged[k] === undefined) this.err(`${path}.${k}`, 'is required');
      else rule[k] = this.regex(`${path}.${k}`, merged[k]) ?? undefined;
    }
    if (merged.line === undefined) this.err(`${path}.line`, 'is required');
    else {
      rule.line = this.oneOrMany(`${path}.line`, merged.line);
      const lines = rule.line === undefined ? [] : Array.isArray(rule.line) ? rule.line : [rule.line];
      if (lines.length > 0 && !lines.some((l) => /\(\?P?<[A-Za-z_]\w*>/.test(l))) {
        this.warn(`${path}.line`, 'has no named groups such as (?P<description>…), so its rows have no columns');
      }
    }
    for (const k of ['first_line', 'last_line', 'skip_line'] as const) {
      if (merged[k] !== undefined && merged[k] !== null) rule[k] = this.oneOrMany(`${path}.${k}`, merged[k]);
    }
    if (merged.line_separator !== undefined)
      rule.line_separator = this.regex(`${path}.line_separator`, merged.line_separator) ?? undefined;
    const types = this.types(`${path}.types`, merged.types);
    if (types) rule.types = types;
    return this.errors.length === before ? (rule as TemplateLinesRule) : null;
  }

  table(path: string, v: unknown): TemplateTable | null {
    if (!isObj(v)) {
      this.err(path, 'must be a mapping with start, end and body');
      return null;
    }
    const before = this.errors.length;
    for (const k of Object.keys(v)) if (!TABLE_KEYS.has(k)) this.unknown(`${path}.${k}`);
    const t: Partial<TemplateTable> = {};
    for (const k of ['start', 'end', 'body'] as const) {
      if (v[k] === undefined) this.err(`${path}.${k}`, 'is required');
      else t[k] = this.regex(`${path}.${k}`, v[k]) ?? undefined;
    }
    if (v.line_separator !== undefined)
      t.line_separator = this.regex(`${path}.line_separator`, v.line_separator) ?? undefined;
    const types = this.types(`${path}.types`, v.types);
    if (types) t.types = types;
    if (v.fields !== undefined) {
      if (!isObj(v.fields)) this.err(`${path}.fields`, 'must be a mapping of column name to {type, group}');
      else {
        t.fields = {};
        for (const [name, f] of Object.entries(v.fields)) {
          if (!isObj(f)) {
            this.err(`${path}.fields.${name}`, 'must be a mapping with type and/or group');
            continue;
          }
          for (const k of Object.keys(f))
            if (k !== 'type' && k !== 'group') this.unknown(`${path}.fields.${name}.${k}`);
          const type = this.type(`${path}.fields.${name}.type`, f.type);
          const group = this.group(`${path}.fields.${name}.group`, f.group);
          t.fields[name] = { ...(type ? { type } : {}), ...(group ? { group } : {}) };
        }
      }
    }
    return this.errors.length === before ? (t as TemplateTable) : null;
  }

  field(path: string, name: string, v: unknown): TemplateFieldSpec | null {
    if (!isObj(v)) {
      if (name.startsWith('static_')) {
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
        this.lenient(path, 'a static_ field needs a value (a string, number or boolean)');
        return null;
      }
      if (typeof v === 'string') return this.regex(path, v);
      if (Array.isArray(v)) {
        if (v.length === 0) {
          this.err(path, 'must not be an empty list');
          return null;
        }
        return this.regexList(path, v, true) ?? null;
      }
      this.lenient(path, 'must be a regex, a list of regexes or a mapping with a parser');
      return null;
    }
    const parser = v.parser;
    const area = v.area !== undefined ? this.area(`${path}.area`, v.area) : undefined;
    if (parser === 'regex') {
      for (const k of Object.keys(v))
        if (!['parser', 'regex', 'type', 'group', 'area', 'tax_rate'].includes(k))
          this.unknown(`${path}.${k}`, 'unknown key for the regex parser');
      const regex = this.regexList(`${path}.regex`, v.regex, true);
      const type = this.type(`${path}.type`, v.type);
      const group = this.group(`${path}.group`, v.group);
      const taxRate = v.tax_rate;
      const rateOk = typeof taxRate === 'number' && Number.isFinite(taxRate) && taxRate > 0 && taxRate <= 1;
      if (taxRate !== undefined && !rateOk) this.err(`${path}.tax_rate`, 'must be a fraction above 0 and at most 1');
      else if (taxRate !== undefined && type !== 'float') this.err(`${path}.tax_rate`, 'needs type: float');
      if (!regex) return null;
      return {
        parser: 'regex',
        regex: typeof v.regex === 'string' ? regex[0] : regex,
        ...(type ? { type } : {}),
        ...(group ? { group } : {}),
        ...(area ? { area } : {}),
        ...(rateOk && type === 'float' ? { tax_rate: taxRate } : {}),
      };
    }
    if (parser === 'static') {
      for (const k of Object.keys(v))
        if (!['parser', 'value', 'type', 'area'].includes(k))
          this.unknown(`${path}.${k}`, 'unknown key for the static parser');
      if (typeof v.value !== 'string' && typeof v.value !== 'number' && typeof v.value !== 'boolean') {
        this.err(`${path}.value`, 'is required (a string, number or boolean)');
        return null;
      }
      return { parser: 'static', value: v.value };
    }
    if (parser === 'lines') {
      const { parser: _p, rules, area: _a, ...inline } = v;
      if (rules !== undefined) {
        if (!Array.isArray(rules) || rules.length === 0) {
          this.err(`${path}.rules`, 'must be a non-empty list of line rules');
          return null;
        }
        for (const k of Object.keys(inline)) if (!RULE_KEYS.has(k)) this.unknown(`${path}.${k}`);
        const defaults = Object.fromEntries(Object.entries(inline).filter(([k]) => RULE_KEYS.has(k)));
        const out = rules.map((r, i) => this.rule(`${path}.rules[${i}]`, r, defaults));
        return out.every((r) => r !== null)
          ? { parser: 'lines', rules: out as TemplateLinesRule[], ...(area ? { area } : {}) }
          : null;
      }
      const rule = this.rule(path, inline);
      return rule ? { parser: 'lines', ...rule, ...(area ? { area } : {}) } : null;
    }
    if (parser === undefined) {
      // invoice2data skips such a field with a warning; so do we, unless writing through the API.
      this.lenient(`${path}.parser`, 'is required (regex, static or lines)');
      return null;
    }
    this.err(`${path}.parser`, 'must be one of regex, static, lines');
    return null;
  }

  options(path: string, v: unknown): TemplateOptions | undefined {
    if (v === undefined || v === null) return undefined;
    if (!isObj(v)) {
      this.err(path, 'must be a mapping');
      return undefined;
    }
    const o: TemplateOptions = {};
    for (const k of Object.keys(v)) {
      if (OPTION_KEYS.has(k)) continue;
      if (k === 'priority')
        this.warn(`${path}.${k}`, 'priority is a top-level key, not an option; ignored (as invoice2data does)');
      else this.unknown(`${path}.${k}`, 'unknown option');
    }
    if (v.currency !== undefined && v.currency !== null) {
      if (typeof v.currency === 'string' && v.currency.trim() !== '' && v.currency.length <= 10)
        o.currency = normaliseCurrency(v.currency);
      else this.err(`${path}.currency`, 'must be a currency code such as EUR');
    }
    const formats = this.stringList(`${path}.date_formats`, v.date_formats);
    if (formats) {
      formats.forEach((f, i) => {
        const c = compileDateFormat(f);
        const at = typeof v.date_formats === 'string' ? `${path}.date_formats` : `${path}.date_formats[${i}]`;
        // strptime simply never matches such a format; the generic date reader still runs.
        if (!c.ok) this.lenient(at, `${c.message}; it can never match`);
      });
      o.date_formats = formats;
    }
    const languages = this.stringList(`${path}.languages`, v.languages);
    if (languages) {
      languages.forEach((l, i) => {
        if (!/^[a-z]{2,3}(?:[-_][A-Za-z]{2})?$/i.test(l))
          this.err(`${path}.languages[${i}]`, 'must be a language code such as en or de');
      });
      o.languages = languages.map((l) => l.toLowerCase());
    }
    if (v.decimal_separator !== undefined) {
      if (v.decimal_separator === ',' || v.decimal_separator === '.') o.decimal_separator = v.decimal_separator;
      else this.err(`${path}.decimal_separator`, 'must be "," or "."');
    }
    for (const k of ['remove_whitespace', 'remove_accents', 'lowercase'] as const) {
      if (v[k] === undefined || v[k] === null) continue;
      if (typeof v[k] === 'boolean') o[k] = v[k] as boolean;
      else {
        // invoice2data tests the option's truthiness (`- True` is a non-empty list, so true).
        const on = Array.isArray(v[k]) ? (v[k] as unknown[]).length > 0 : Boolean(v[k]);
        this.lenient(
          `${path}.${k}`,
          `must be true or false${this.strict ? '' : `; read as ${on} (its truthiness, as invoice2data reads it)`}`,
        );
        o[k] = on;
      }
    }
    if (v.replace !== undefined && v.replace !== null) {
      if (!Array.isArray(v.replace)) this.err(`${path}.replace`, 'must be a list of [pattern, replacement] pairs');
      else {
        o.replace = [];
        v.replace.forEach((pair, i) => {
          const p = `${path}.replace[${i}]`;
          if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[1] !== 'string') {
            this.err(p, 'must be a [pattern, replacement] pair of strings');
          } else if (this.regex(`${p}[0]`, pair[0]) !== null) o.replace?.push([pair[0] as string, pair[1]]);
        });
      }
    }
    return o;
  }
}

/** Options for {@link validateTemplate}. */
export interface ValidateOptions {
  /** Name used when the template has none (e.g. the file name). Default: the issuer. */
  name?: string;
  /** Prefix for reported paths, e.g. `[2]` for the third template of a list. Default none. */
  pathPrefix?: string;
  /** Unknown keys and fields without a parser are errors instead of warnings. Default false. */
  strict?: boolean;
}

/** Validates a template object and returns it normalised (lists where strings were allowed). */
export function validateTemplate(input: unknown, opts: ValidateOptions = {}): TemplateValidation {
  const c = new Checker(opts.pathPrefix ?? '', opts.strict ?? false);
  if (!isObj(input)) {
    c.err('', 'a template must be a mapping (object)');
    return { ok: false, errors: c.errors };
  }
  for (const k of Object.keys(input)) {
    if (TOP_KEYS.has(k)) continue;
    if (IGNORED_TOP_KEYS[k]) c.warn(k, IGNORED_TOP_KEYS[k]);
    else c.unknown(k);
  }
  const keywords = c.regexList('keywords', input.keywords, true);
  let issuer = input.issuer;
  if (issuer === undefined || issuer === null)
    issuer =
      typeof input.keywords === 'string'
        ? input.keywords
        : Array.isArray(input.keywords)
          ? input.keywords[0]
          : undefined;
  if (typeof issuer === 'number') issuer = String(issuer);
  if (typeof issuer !== 'string' || issuer.trim() === '')
    c.err('issuer', 'is required (a non-empty string; invoice2data uses the first keyword when it is missing)');
  if (input.name !== undefined && (typeof input.name !== 'string' || input.name.trim() === ''))
    c.err('name', 'must be a non-empty string');
  if (input.id !== undefined && typeof input.id !== 'string') c.err('id', 'must be a string');
  const exclude = c.regexList('exclude_keywords', input.exclude_keywords, false);
  if (
    input.priority !== undefined &&
    !(typeof input.priority === 'number' && Number.isInteger(input.priority) && Math.abs(input.priority) <= 1_000_000)
  ) {
    c.err('priority', 'must be an integer');
  }
  const fields: Record<string, TemplateFieldSpec> = {};
  if (!isObj(input.fields))
    c.err('fields', input.fields === undefined ? 'is required' : 'must be a mapping of field name to definition');
  else {
    for (const [name, spec] of Object.entries(input.fields)) {
      if (!FIELD_NAME.test(name)) {
        c.err(
          `fields.${name}`,
          'field names start with a letter or _ and use letters, digits, spaces, _ . - (at most 64)',
        );
        continue;
      }
      const f = c.field(`fields.${name}`, name, spec);
      if (f !== null) fields[name] = f;
    }
  }
  let lines: TemplateLinesRule | TemplateLinesRule[] | undefined;
  if (Array.isArray(input.lines)) {
    const blocks = input.lines.map((b, i) => c.rule(`lines[${i}]`, b));
    lines = blocks.filter((b): b is TemplateLinesRule => b !== null);
  } else if (input.lines !== undefined && input.lines !== null) {
    lines = c.rule('lines', input.lines) ?? undefined;
  }
  let tables: TemplateTable[] | undefined;
  if (input.tables !== undefined && input.tables !== null) {
    if (!Array.isArray(input.tables)) c.err('tables', 'must be a list of tables (start, end, body)');
    else tables = input.tables.map((t, i) => c.table(`tables[${i}]`, t)).filter((t): t is TemplateTable => t !== null);
  }
  const options = c.options('options', input.options);
  const required = c.stringList('required_fields', input.required_fields);
  if (c.errors.length > 0) return { ok: false, errors: c.errors };
  const name = typeof input.name === 'string' ? input.name.trim() : (opts.name ?? (issuer as string)).trim();
  // invoice2data strips the spaces from keywords as from the text when remove_whitespace is set:
  // a keyword written "Some Name" must still find "SomeName" in the prepared text.
  const squeeze = (xs: string[]): string[] => (options?.remove_whitespace ? xs.map((k) => k.replace(/ +/g, '')) : xs);
  if (
    input.document_type !== undefined &&
    !(typeof input.document_type === 'string' && /^[a-z][a-z_]{0,39}$/.test(input.document_type))
  )
    return {
      ok: false,
      errors: [{ path: 'document_type', message: 'must be a lower-case type name such as invoice or receipt' }],
    };
  const template: TemplateDef = {
    name,
    ...(typeof input.id === 'string' ? { id: input.id } : {}),
    issuer: (issuer as string).trim(),
    keywords: squeeze(keywords ?? []),
    ...(exclude && exclude.length > 0 ? { exclude_keywords: squeeze(exclude) } : {}),
    ...(typeof input.document_type === 'string' ? { document_type: input.document_type } : {}),
    ...(input.priority !== undefined ? { priority: input.priority as number } : {}),
    fields,
    ...(lines !== undefined ? { lines } : {}),
    ...(tables !== undefined && tables.length > 0 ? { tables } : {}),
    ...(options !== undefined ? { options } : {}),
    ...(required !== undefined ? { required_fields: required } : {}),
  };
  return { ok: true, template, warnings: c.warnings };
}
