/**
 * The template engine: choose a template by keywords and priority, then read its fields.
 * Semantics follow invoice2data so its YAML templates work unchanged: the text is prepared by
 * the template's options (whitespace, accents, case, replacements) before keywords and
 * regexes see it; regexes use Python `re` defaults (add `(?m)` for line anchors).
 */
import { parseAmount, roundMoney } from './amounts.js';
import { normaliseCurrency } from './currency.js';
import { inferDayFirst, parseDate } from './dates.js';
import { compileUserRegex, RegexBudget } from '../../lib/user-regex/index.js';
import { readLinesBlock, type EngineContext } from './template-lines.js';
import {
  DEFAULT_PRIORITY,
  DEFAULT_REQUIRED_FIELDS,
  type TemplateDef,
  type TemplateFieldType,
  type TemplateGroup,
  type TemplateLinesBlock,
  type TemplateOptions,
} from './template-schema.js';
import { stripAccents } from './text.js';
import { field, type ExtractHints, type ExtractedFields } from './types.js';

/**
 * Longest text a template is applied to; longer input is cut. Together with the per-call
 * ceiling of the regex engine this bounds the work one document can cause (invoices run to a
 * few pages; 100k characters of layout text is over ten).
 */
export const TEMPLATE_MAX_CHARS = 100_000;

/**
 * Default time budget for all template regex work on one document, in ms. A backstop: every
 * single call is already bounded by the engine's per-call ceiling; this bounds their number.
 */
export const DEFAULT_TEMPLATE_BUDGET_MS = 1000;

/** Applies a template's text options in invoice2data's order. */
export function prepareText(text: string, options: TemplateOptions | undefined, budget?: RegexBudget): string {
  let s = text.length > TEMPLATE_MAX_CHARS ? text.slice(0, TEMPLATE_MAX_CHARS) : text;
  // One final newline is dropped: Python's `$` also matches just before it, RE2's does not.
  s = s.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  if (!options) return s;
  if (options.remove_whitespace) s = s.replace(/[ \t\u00a0]+/g, '');
  if (options.remove_accents) s = stripAccents(s);
  if (options.lowercase) s = s.toLowerCase();
  for (const [pattern, replacement] of options.replace ?? []) {
    const r = compileUserRegex(pattern);
    if (r.ok) s = r.regex.replace(s, replacement, budget);
  }
  return s;
}

function optionsKey(o: TemplateOptions | undefined): string {
  return o ? JSON.stringify([o.remove_whitespace, o.remove_accents, o.lowercase, o.replace]) : '';
}

function anyMatch(patterns: readonly string[] | undefined, text: string, budget: RegexBudget): { all: boolean; any: boolean } {
  let all = true;
  let any = false;
  for (const p of patterns ?? []) {
    const r = compileUserRegex(p);
    const hit = r.ok && r.regex.test(text, budget);
    all &&= hit;
    any ||= hit;
  }
  return { all, any };
}

/**
 * All templates whose keywords all match and whose exclude keywords do not, best first:
 * higher priority, then more keywords (more specific), then list order.
 */
export function matchTemplates(templates: readonly TemplateDef[], text: string, budget = new RegexBudget(DEFAULT_TEMPLATE_BUDGET_MS)): TemplateDef[] {
  const prepared = new Map<string, string>();
  const hits: Array<{ t: TemplateDef; i: number }> = [];
  templates.forEach((t, i) => {
    if (!t || !Array.isArray(t.keywords) || t.keywords.length === 0) return;
    const key = optionsKey(t.options);
    let s = prepared.get(key);
    if (s === undefined) {
      s = prepareText(text, t.options, budget);
      prepared.set(key, s);
    }
    if (!anyMatch(t.keywords, s, budget).all) return;
    if (anyMatch(t.exclude_keywords, s, budget).any) return;
    hits.push({ t, i });
  });
  hits.sort(
    (a, b) =>
      (b.t.priority ?? DEFAULT_PRIORITY) - (a.t.priority ?? DEFAULT_PRIORITY) ||
      b.t.keywords.length - a.t.keywords.length ||
      a.i - b.i,
  );
  return hits.map((h) => h.t);
}

/** The best matching template, or null. */
export function matchTemplate(templates: readonly TemplateDef[], text: string, budget?: RegexBudget): TemplateDef | null {
  return matchTemplates(templates, text, budget)[0] ?? null;
}

/** Options for {@link runTemplate}. */
export interface ApplyTemplateOptions {
  /** Fallback conventions when the template's options do not fix them. */
  hints?: ExtractHints;
  /** Time budget in ms; once spent, remaining fields are skipped with a warning. Default 1000. */
  budgetMs?: number;
  /** Clock for the budget (tests). Default `performance.now`. */
  now?: () => number;
  /** A budget shared with other work on the same document (overrides `budgetMs`/`now`). */
  budget?: RegexBudget;
}

export interface TemplateRunResult {
  fields: ExtractedFields;
  /** Required fields (template's `required_fields`, default amount/date/invoice_number/issuer) not produced. */
  missingRequired: string[];
  /** Values that did not convert, regexes that could not run, budget exhaustion. */
  warnings: string[];
}

interface FieldPlan {
  out: string;
  regexes: string[];
  type?: TemplateFieldType;
  group: TemplateGroup;
}

/** Legacy invoice2data conventions: names decide type and grouping. */
function legacyPlan(name: string, regexes: string[]): FieldPlan {
  const summed = name.startsWith('sum_amount');
  return {
    out: summed ? name.slice(4) : name,
    regexes,
    type: name.startsWith('date') ? 'date' : name.startsWith('amount') || summed ? 'float' : undefined,
    group: summed ? 'sum' : 'first',
  };
}

function combine(values: Array<string | number>, group: TemplateGroup): string | number {
  switch (group) {
    case 'last':
      return values[values.length - 1];
    case 'join':
      return values.map(String).join(' ');
    case 'sum': {
      const nums = values.map((v) => (typeof v === 'number' ? v : parseAmount(v) ?? 0));
      return roundMoney(nums.reduce((a, b) => a + b, 0));
    }
    case 'min':
    case 'max': {
      const sorted = [...values].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
      return group === 'min' ? sorted[0] : sorted[sorted.length - 1];
    }
    default:
      return values[0];
  }
}

/** Applies a template and reports missing required fields and warnings. */
export function runTemplate(template: TemplateDef, text: string, opts: ApplyTemplateOptions = {}): TemplateRunResult {
  const budgetMs = opts.budgetMs ?? DEFAULT_TEMPLATE_BUDGET_MS;
  const budget = opts.budget ?? new RegexBudget(budgetMs, opts.now ? { now: opts.now } : {});
  const warnings: string[] = [];
  const options = template.options ?? {};
  const prepared = prepareText(text, template.options, budget);
  const decimalSeparator = options.decimal_separator ?? opts.hints?.decimalSeparator;
  const dayFirst = opts.hints?.dayFirst ?? inferDayFirst(prepared) ?? true;
  const convert = (raw: string, type: TemplateFieldType): string | number | null => {
    if (type === 'date') return parseDate(raw, { formats: options.date_formats, dayFirst });
    const n = parseAmount(raw, { decimalSeparator });
    if (n === null) return null;
    return type === 'int' ? (Number.isInteger(n) ? n : null) : n;
  };
  let budgetWarned = false;
  const ctx: EngineContext = {
    convert,
    warnings,
    budget,
    overBudget: () => {
      const over = budget.timeSpent();
      if (over && !budgetWarned) {
        warnings.push(`time budget of ${budgetMs} ms spent; remaining fields skipped`);
        budgetWarned = true;
      }
      return over;
    },
  };

  const fields: ExtractedFields = {};
  fields.issuer = field(template.issuer, 1, 'template');
  if (options.currency) fields.currency = field(normaliseCurrency(options.currency), 1, 'template');

  for (const [name, spec] of Object.entries(template.fields ?? {})) {
    if (ctx.overBudget()) break;
    if (name.startsWith('static_')) {
      fields[name.slice(7)] = field(typeof spec === 'number' ? spec : String(spec), 1, 'template');
      continue;
    }
    let plan: FieldPlan;
    if (typeof spec === 'string') plan = legacyPlan(name, [spec]);
    else if (Array.isArray(spec)) plan = legacyPlan(name, spec);
    else if (spec.parser === 'static') {
      fields[name] = field(spec.value, 1, 'template');
      continue;
    } else if (spec.parser === 'lines') {
      const blocks: TemplateLinesBlock[] = spec.rules ?? [spec as TemplateLinesBlock];
      const rows = blocks.flatMap((b, i) => readLinesBlock(b, prepared, ctx, spec.rules ? `fields.${name}.rules[${i}]` : `fields.${name}`));
      if (rows.length > 0) fields[name] = field(rows, 0.9, 'template');
      continue;
    } else {
      plan = { out: name, regexes: Array.isArray(spec.regex) ? spec.regex : [spec.regex], type: spec.type, group: spec.group ?? 'first' };
    }
    const values = readRegexField(plan, prepared, ctx, name);
    if (values.length === 0) continue;
    const distinct = new Set(values.map(String)).size;
    const value = combine(values, plan.group);
    // Several different matches with first/last: the template is less sure which one is meant.
    const ambiguous = distinct > 1 && (plan.group === 'first' || plan.group === 'last');
    fields[plan.out] = field(value, ambiguous ? 0.85 : 0.95, 'template');
  }

  if (template.lines !== undefined && !fields.line_items && !ctx.overBudget()) {
    const blocks = Array.isArray(template.lines) ? template.lines : [template.lines];
    const rows = blocks.flatMap((b, i) => readLinesBlock(b, prepared, ctx, Array.isArray(template.lines) ? `lines[${i}]` : 'lines'));
    if (rows.length > 0) fields.line_items = field(rows, 0.9, 'template');
  }

  return { fields, missingRequired: missingRequiredFields(template, fields), warnings };
}

function readRegexField(plan: FieldPlan, text: string, ctx: EngineContext, name: string): Array<string | number> {
  const values: Array<string | number> = [];
  plan.regexes.forEach((pattern, i) => {
    if (ctx.overBudget()) return;
    const r = compileUserRegex(pattern);
    if (!r.ok) {
      ctx.warnings.push(`fields.${name}${plan.regexes.length > 1 ? `[${i}]` : ''}: ${r.message}`);
      return;
    }
    const groups = r.regex.groupCount;
    ctx.budget.lastRefusal = null;
    for (const m of r.regex.matchAll(text, ctx.budget)) {
      // Like Python's findall: the first group when the pattern has groups, else the match.
      const raw = (groups > 0 ? m.groups.find((g) => g !== undefined) : m.text)?.trim();
      if (raw === undefined || raw === '') continue;
      if (!plan.type) {
        values.push(raw);
        continue;
      }
      const v = ctx.convert(raw, plan.type);
      if (v === null) ctx.warnings.push(`fields.${name}: could not read "${raw.slice(0, 60)}" as ${plan.type}`);
      else values.push(v);
    }
    if (ctx.budget.lastRefusal) ctx.warnings.push(`fields.${name}: ${ctx.budget.lastRefusal}`);
  });
  return values;
}

/** Required fields (default amount, date, invoice_number, issuer) absent from `fields`. */
export function missingRequiredFields(template: TemplateDef, fields: ExtractedFields): string[] {
  const required = template.required_fields ?? DEFAULT_REQUIRED_FIELDS;
  return required.filter((r) => fields[r] === undefined || fields[r].value === null);
}

/** Applies a template and returns its fields (see {@link runTemplate} for warnings and missing fields). */
export function applyTemplate(template: TemplateDef, text: string, opts: ApplyTemplateOptions = {}): ExtractedFields {
  return runTemplate(template, text, opts).fields;
}

