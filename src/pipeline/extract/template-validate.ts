/**
 * Validates and normalises a template object (from JSON or YAML). Every problem is reported
 * with its path, not just the first, so an import can be fixed in one pass.
 */
import { normaliseCurrency } from './currency.js';
import { compileDateFormat } from './dates.js';
import { compileUserRegex } from '../../lib/user-regex/index.js';
import type {
  TemplateDef,
  TemplateFieldSpec,
  TemplateFieldType,
  TemplateIssue,
  TemplateLinesBlock,
  TemplateOptions,
  TemplateValidation,
} from './template-schema.js';

const TOP_KEYS = new Set(['name', 'id', 'issuer', 'keywords', 'exclude_keywords', 'priority', 'fields', 'lines', 'options', 'required_fields']);
/** invoice2data keys we recognise but do not implement: accepted with a warning. */
const IGNORED_KEYS = new Set(['tables']);
const OPTION_KEYS = new Set(['currency', 'date_formats', 'languages', 'decimal_separator', 'remove_whitespace', 'remove_accents', 'lowercase', 'replace']);
const BLOCK_KEYS = new Set(['start', 'end', 'line', 'first_line', 'last_line', 'skip_line', 'types']);
const TYPES = new Set(['int', 'float', 'date']);
const GROUPS = new Set(['sum', 'min', 'max', 'first', 'last', 'join']);
const FIELD_NAME = /^[A-Za-z_][\w.-]{0,63}$/;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class Checker {
  readonly errors: TemplateIssue[] = [];
  readonly warnings: TemplateIssue[] = [];
  constructor(private readonly prefix: string) {}

  err(path: string, message: string): void {
    this.errors.push({ path: this.join(path), message });
  }
  warn(path: string, message: string): void {
    this.warnings.push({ path: this.join(path), message });
  }
  private join(path: string): string {
    if (!this.prefix) return path || '(root)';
    if (!path) return this.prefix;
    return path.startsWith('[') ? `${this.prefix}${path}` : `${this.prefix}.${path}`;
  }

  regex(path: string, v: unknown, flags = ''): string | null {
    if (typeof v !== 'string') {
      this.err(path, 'must be a string (a regular expression)');
      return null;
    }
    const r = compileUserRegex(v, { flags });
    if (!r.ok) {
      this.err(path, r.message);
      return null;
    }
    return v;
  }

  /** A string or a list of strings, each a valid regex. */
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

  stringList(path: string, v: unknown): string[] | undefined {
    if (v === undefined || v === null) return undefined;
    const list = typeof v === 'string' ? [v] : v;
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || x === '')) {
      this.err(path, 'must be a string or a list of non-empty strings');
      return undefined;
    }
    return list as string[];
  }

  types(path: string, v: unknown): Record<string, TemplateFieldType> | undefined {
    if (v === undefined) return undefined;
    if (!isObj(v)) {
      this.err(path, 'must be a mapping of group name to int, float or date');
      return undefined;
    }
    const out: Record<string, TemplateFieldType> = {};
    for (const [k, t] of Object.entries(v)) {
      if (typeof t === 'string' && TYPES.has(t)) out[k] = t as TemplateFieldType;
      else this.err(`${path}.${k}`, 'must be one of int, float, date');
    }
    return out;
  }

  block(path: string, v: unknown, allowParser = false): TemplateLinesBlock | null {
    if (!isObj(v)) {
      this.err(path, 'must be a mapping with start, end and line');
      return null;
    }
    for (const k of Object.keys(v)) {
      if (!BLOCK_KEYS.has(k) && !(allowParser && k === 'parser')) this.err(`${path}.${k}`, 'unknown key');
    }
    const before = this.errors.length;
    const block: Partial<TemplateLinesBlock> = {};
    for (const k of ['start', 'end', 'line'] as const) {
      if (v[k] === undefined) this.err(`${path}.${k}`, 'is required');
      else block[k] = this.regex(`${path}.${k}`, v[k], 'm') ?? undefined;
    }
    for (const k of ['first_line', 'last_line'] as const) {
      if (v[k] !== undefined) block[k] = this.regex(`${path}.${k}`, v[k]) ?? undefined;
    }
    if (block.line !== undefined && !/\(\?P?<[A-Za-z_]\w*>/.test(block.line)) {
      this.err(`${path}.line`, 'needs named groups such as (?P<description>…) to name the columns');
    }
    const skip = this.regexList(`${path}.skip_line`, v.skip_line, false);
    if (skip) block.skip_line = skip;
    const types = this.types(`${path}.types`, v.types);
    if (types) block.types = types;
    return this.errors.length === before ? (block as TemplateLinesBlock) : null;
  }

  field(path: string, name: string, v: unknown): TemplateFieldSpec | null {
    if (name.startsWith('static_')) {
      if (typeof v === 'string' || typeof v === 'number') return v === '' ? null : String(v);
      this.err(path, 'a static_ field needs a string or number value');
      return null;
    }
    if (typeof v === 'string') return this.regex(path, v);
    if (Array.isArray(v)) {
      if (v.length === 0) this.err(path, 'must not be an empty list');
      return this.regexList(path, v, true) ?? null;
    }
    if (!isObj(v)) {
      this.err(path, 'must be a regex, a list of regexes or a mapping with a parser');
      return null;
    }
    const parser = v.parser;
    if (parser === 'regex') {
      for (const k of Object.keys(v)) if (!['parser', 'regex', 'type', 'group'].includes(k)) this.err(`${path}.${k}`, 'unknown key for the regex parser');
      const regex = this.regexList(`${path}.regex`, v.regex, true);
      if (v.type !== undefined && !(typeof v.type === 'string' && TYPES.has(v.type))) this.err(`${path}.type`, 'must be one of int, float, date');
      if (v.group !== undefined && !(typeof v.group === 'string' && GROUPS.has(v.group))) this.err(`${path}.group`, 'must be one of sum, min, max, first, last, join');
      if (!regex) return null;
      return {
        parser: 'regex',
        regex: typeof v.regex === 'string' ? regex[0] : regex,
        ...(v.type !== undefined ? { type: v.type as TemplateFieldType } : {}),
        ...(v.group !== undefined ? { group: v.group as 'first' } : {}),
      };
    }
    if (parser === 'static') {
      for (const k of Object.keys(v)) if (!['parser', 'value'].includes(k)) this.err(`${path}.${k}`, 'unknown key for the static parser');
      if (typeof v.value !== 'string' && typeof v.value !== 'number') {
        this.err(`${path}.value`, 'is required (a string or number)');
        return null;
      }
      return { parser: 'static', value: v.value };
    }
    if (parser === 'lines') {
      if (v.rules !== undefined) {
        if (!Array.isArray(v.rules) || v.rules.length === 0) {
          this.err(`${path}.rules`, 'must be a non-empty list of line blocks');
          return null;
        }
        const rules = v.rules.map((r, i) => this.block(`${path}.rules[${i}]`, r));
        return rules.every((r) => r !== null) ? { parser: 'lines', rules: rules as TemplateLinesBlock[] } : null;
      }
      const block = this.block(path, v, true);
      return block ? { parser: 'lines', ...block } : null;
    }
    this.err(`${path}.parser`, parser === undefined ? 'is required (regex, static or lines)' : 'must be one of regex, static, lines');
    return null;
  }

  options(path: string, v: unknown): TemplateOptions | undefined {
    if (v === undefined || v === null) return undefined;
    if (!isObj(v)) {
      this.err(path, 'must be a mapping');
      return undefined;
    }
    const o: TemplateOptions = {};
    for (const k of Object.keys(v)) if (!OPTION_KEYS.has(k)) this.err(`${path}.${k}`, 'unknown option');
    if (v.currency !== undefined) {
      if (typeof v.currency === 'string' && v.currency.trim() !== '' && v.currency.length <= 10) o.currency = normaliseCurrency(v.currency);
      else this.err(`${path}.currency`, 'must be a currency code such as EUR');
    }
    const formats = this.stringList(`${path}.date_formats`, v.date_formats);
    if (formats) {
      formats.forEach((f, i) => {
        const c = compileDateFormat(f);
        if (!c.ok) this.err(typeof v.date_formats === 'string' ? `${path}.date_formats` : `${path}.date_formats[${i}]`, c.message);
      });
      o.date_formats = formats;
    }
    const languages = this.stringList(`${path}.languages`, v.languages);
    if (languages) {
      languages.forEach((l, i) => {
        if (!/^[a-z]{2,3}(?:[-_][A-Za-z]{2})?$/i.test(l)) this.err(`${path}.languages[${i}]`, 'must be a language code such as en or de');
      });
      o.languages = languages.map((l) => l.toLowerCase());
    }
    if (v.decimal_separator !== undefined) {
      if (v.decimal_separator === ',' || v.decimal_separator === '.') o.decimal_separator = v.decimal_separator;
      else this.err(`${path}.decimal_separator`, 'must be "," or "."');
    }
    for (const k of ['remove_whitespace', 'remove_accents', 'lowercase'] as const) {
      if (v[k] === undefined) continue;
      if (typeof v[k] === 'boolean') o[k] = v[k] as boolean;
      else this.err(`${path}.${k}`, 'must be true or false');
    }
    if (v.replace !== undefined) {
      if (!Array.isArray(v.replace)) this.err(`${path}.replace`, 'must be a list of [pattern, replacement] pairs');
      else {
        o.replace = [];
        v.replace.forEach((pair, i) => {
          const p = `${path}.replace[${i}]`;
          if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[1] !== 'string') {
            this.err(p, 'must be a [pattern, replacement] pair of strings');
          } else if (this.regex(`${p}[0]`, pair[0], 'g') !== null) o.replace?.push([pair[0] as string, pair[1]]);
        });
      }
    }
    return o;
  }
}

/** Options for {@link validateTemplate}. */
export interface ValidateOptions {
  /** Name used when the template has none (e.g. the YAML file name). Default: the issuer. */
  name?: string;
  /** Prefix for reported paths, e.g. `[2]` for the third template of a list. Default none. */
  pathPrefix?: string;
}

/** Validates a template object and returns it normalised (lists where strings were allowed). */
export function validateTemplate(input: unknown, opts: ValidateOptions = {}): TemplateValidation {
  const c = new Checker(opts.pathPrefix ?? '');
  if (!isObj(input)) {
    c.err('', 'a template must be a mapping (object)');
    return { ok: false, errors: c.errors };
  }
  for (const k of Object.keys(input)) {
    if (IGNORED_KEYS.has(k)) c.warn(k, 'not supported; ignored');
    else if (!TOP_KEYS.has(k)) c.err(k, 'unknown key');
  }
  const issuer = input.issuer;
  if (typeof issuer !== 'string' || issuer.trim() === '') c.err('issuer', 'is required (a non-empty string)');
  if (input.name !== undefined && (typeof input.name !== 'string' || input.name.trim() === '')) c.err('name', 'must be a non-empty string');
  if (input.id !== undefined && typeof input.id !== 'string') c.err('id', 'must be a string');
  const keywords = c.regexList('keywords', input.keywords, true);
  const exclude = c.regexList('exclude_keywords', input.exclude_keywords, false);
  if (input.priority !== undefined && !(typeof input.priority === 'number' && Number.isInteger(input.priority) && Math.abs(input.priority) <= 1_000_000)) {
    c.err('priority', 'must be an integer');
  }
  const fields: Record<string, TemplateFieldSpec> = {};
  if (!isObj(input.fields)) c.err('fields', input.fields === undefined ? 'is required' : 'must be a mapping of field name to definition');
  else {
    for (const [name, spec] of Object.entries(input.fields)) {
      if (!FIELD_NAME.test(name)) c.err(`fields.${name}`, 'field names start with a letter or _ and use letters, digits, _ . -');
      const f = c.field(`fields.${name}`, name, spec);
      if (f !== null) fields[name] = f;
    }
  }
  let lines: TemplateLinesBlock | TemplateLinesBlock[] | undefined;
  if (Array.isArray(input.lines)) {
    const blocks = input.lines.map((b, i) => c.block(`lines[${i}]`, b));
    lines = blocks.filter((b): b is TemplateLinesBlock => b !== null);
  } else if (input.lines !== undefined) {
    lines = c.block('lines', input.lines) ?? undefined;
  }
  const options = c.options('options', input.options);
  const required = c.stringList('required_fields', input.required_fields);
  if (c.errors.length > 0) return { ok: false, errors: c.errors };
  const name = typeof input.name === 'string' ? input.name.trim() : (opts.name ?? (issuer as string)).trim();
  const template: TemplateDef = {
    name,
    ...(typeof input.id === 'string' ? { id: input.id } : {}),
    issuer: (issuer as string).trim(),
    keywords: keywords ?? [],
    ...(exclude && exclude.length > 0 ? { exclude_keywords: exclude } : {}),
    ...(input.priority !== undefined ? { priority: input.priority as number } : {}),
    fields,
    ...(lines !== undefined ? { lines } : {}),
    ...(options !== undefined ? { options } : {}),
    ...(required !== undefined ? { required_fields: required } : {}),
  };
  return { ok: true, template, warnings: c.warnings };
}
