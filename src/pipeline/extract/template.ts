/**
 * The template engine: choose a template by keywords and priority, then read its fields, with
 * invoice2data's semantics so its YAML and JSON templates work unchanged. The text is prepared
 * by the template's options before keywords and regexes see it; regexes use Python `re`
 * syntax without flags (add `(?m)` for line anchors); output field names are the template's.
 */
import { compileUserRegex, RegexBudget } from '../../lib/user-regex/index.js';
import { normaliseCurrency } from './currency.js';
import { templateConverter } from './template-convert.js';
import { readLines, type EngineContext } from './template-lines.js';
import { prepareText } from './template-prepare.js';
import { figureByTaxRate } from './tax-rate.js';
import { PreparedTexts, ruledOut } from './template-select.js';
import { readRegexField, type RegexFieldPlan } from './template-regex.js';
import {
  DEFAULT_PRIORITY,
  DEFAULT_REQUIRED_FIELDS,
  type TemplateArea,
  type TemplateDef,
  type TemplateFieldType,
  type TemplateLinesRule,
} from './template-schema.js';
import { readTable } from './template-tables.js';
import { field, type ExtractedFields, type FieldValue } from './types.js';

export { prepareText, TEMPLATE_MAX_CHARS } from './template-prepare.js';

/**
 * Default time budget for all template regex work on one document, in ms. A backstop: every
 * single call is already bounded by the engine's per-call ceiling; this bounds their number.
 */
export const DEFAULT_TEMPLATE_BUDGET_MS = 1000;

/** How one template fared against a document's text. */
export interface TemplateMatchTrace {
  template: TemplateDef;
  matched: boolean;
  /** Each keyword and whether it was found (all must be). */
  keywords: Array<{ pattern: string; hit: boolean }>;
  /** Each exclude keyword and whether it was found (none may be). */
  exclude_keywords: Array<{ pattern: string; hit: boolean }>;
  /** Why it did not match, in words. */
  reason?: string;
}

function hits(
  patterns: readonly string[] | undefined,
  text: string,
  budget: RegexBudget,
  stopAt: boolean | null,
): Array<{ pattern: string; hit: boolean }> {
  const out: Array<{ pattern: string; hit: boolean }> = [];
  for (const p of patterns ?? []) {
    const r = compileUserRegex(p);
    const hit = r.ok && r.regex.test(text, budget);
    out.push({ pattern: p, hit });
    if (stopAt !== null && hit === stopAt) break;
  }
  return out;
}

/**
 * Evaluates every template's keywords against the text prepared by its own options. With
 * `full`, every keyword is tested (for a trace); otherwise a template stops at the first
 * keyword found missing (one whose required text is absent is reported without running it).
 */
export function evaluateTemplates(
  templates: readonly TemplateDef[],
  text: string,
  opts: { budget?: RegexBudget; full?: boolean } = {},
): TemplateMatchTrace[] {
  const budget = opts.budget ?? new RegexBudget(DEFAULT_TEMPLATE_BUDGET_MS);
  const prepared = new PreparedTexts(text, budget);
  return templates.map((t) => evaluateOne(t, budget, prepared, opts.full ?? false));
}

const notFound = (missing: string[]): string =>
  `keyword${missing.length > 1 ? 's' : ''} not found: ${missing.map((m) => JSON.stringify(m)).join(', ')}`;

/** One template's keywords against the text prepared by its options (each preparation shared through `prepared`). */
function evaluateOne(t: TemplateDef, budget: RegexBudget, prepared: PreparedTexts, full: boolean): TemplateMatchTrace {
  if (!t || !Array.isArray(t.keywords) || t.keywords.length === 0) {
    return { template: t, matched: false, keywords: [], exclude_keywords: [], reason: 'the template has no keywords' };
  }
  if (!full) {
    const absent = ruledOut(t, prepared);
    if (absent !== null) {
      const pattern = t.keywords[absent];
      return {
        template: t,
        matched: false,
        keywords: [{ pattern, hit: false }],
        exclude_keywords: [],
        reason: notFound([pattern]),
      };
    }
  }
  const s = prepared.text(t);
  const kw = hits(t.keywords, s, budget, full ? null : false);
  const missing = kw.filter((k) => !k.hit).map((k) => k.pattern);
  if (missing.length > 0) {
    return { template: t, matched: false, keywords: kw, exclude_keywords: [], reason: notFound(missing) };
  }
  const ex = hits(t.exclude_keywords, s, budget, full ? null : true);
  const found = ex.filter((k) => k.hit).map((k) => k.pattern);
  if (found.length > 0)
    return {
      template: t,
      matched: false,
      keywords: kw,
      exclude_keywords: ex,
      reason: `exclude keyword found: ${found.map((m) => JSON.stringify(m)).join(', ')}`,
    };
  return { template: t, matched: true, keywords: kw, exclude_keywords: ex };
}

/**
 * All templates whose keywords all match and whose exclude keywords do not, best first:
 * higher priority, then more keywords (more specific), then list order.
 */
export function rankMatches(traces: readonly TemplateMatchTrace[]): TemplateDef[] {
  return traces
    .map((tr, i) => ({ tr, i }))
    .filter(({ tr }) => tr.matched)
    .sort(
      (a, b) =>
        (b.tr.template.priority ?? DEFAULT_PRIORITY) - (a.tr.template.priority ?? DEFAULT_PRIORITY) ||
        b.tr.template.keywords.length - a.tr.template.keywords.length ||
        a.i - b.i,
    )
    .map(({ tr }) => tr.template);
}

export function matchTemplates(
  templates: readonly TemplateDef[],
  text: string,
  budget = new RegexBudget(DEFAULT_TEMPLATE_BUDGET_MS),
): TemplateDef[] {
  return rankMatches(evaluateTemplates(templates, text, { budget }));
}

/**
 * The best matching template, or null. Templates are tried in rank order (priority, then more
 * keywords, then list order) and the first that matches is the answer, so a document that
 * matches early costs little. `prepared` shares prepared texts with later work on the same text.
 */
export function matchTemplate(
  templates: readonly TemplateDef[],
  text: string,
  budget = new RegexBudget(DEFAULT_TEMPLATE_BUDGET_MS),
  prepared: PreparedTexts = new PreparedTexts(text, budget),
): TemplateDef | null {
  const order = templates
    .map((t, i) => ({ t, i }))
    .filter(({ t }) => t && Array.isArray(t.keywords) && t.keywords.length > 0)
    .sort(
      (a, b) =>
        (b.t.priority ?? DEFAULT_PRIORITY) - (a.t.priority ?? DEFAULT_PRIORITY) ||
        b.t.keywords.length - a.t.keywords.length ||
        a.i - b.i,
    );
  for (const { t } of order) {
    if (evaluateOne(t, budget, prepared, false).matched) return t;
  }
  return null;
}

/** Options for {@link runTemplate}. */
export interface ApplyTemplateOptions {
  /** Time budget in ms; once spent, remaining fields are skipped with a warning. Default 1000. */
  budgetMs?: number;
  /** Clock for the budget (tests). Default `performance.now`. */
  now?: () => number;
  /** A budget shared with other work on the same document (overrides `budgetMs`/`now`). */
  budget?: RegexBudget;
  /**
   * Layout text of a page region (a field's `area`), as pdftotext crops it; null when the
   * document has no page layout. Without it, area fields read the whole text (as invoice2data
   * does for input that is not a PDF).
   */
  areaText?: (area: TemplateArea) => string | null;
  /** Texts already prepared for this document (from choosing the template). */
  prepared?: PreparedTexts;
}

/** What happened to one field of the template. */
export interface FieldTrace {
  field: string;
  parser: 'regex' | 'static' | 'lines' | 'tables';
  status: 'ok' | 'no_match' | 'failed' | 'empty' | 'skipped';
  reason?: string;
}

export interface TemplateRunResult {
  fields: ExtractedFields;
  /** Required fields (template's `required_fields`, default date/amount/invoice_number/issuer) not produced. */
  missingRequired: string[];
  /** Values that did not convert, regexes that could not run, budget exhaustion. */
  warnings: string[];
  trace: FieldTrace[];
}

/** invoice2data's names: a field named so has that type without saying it. */
function legacyType(name: string, list: boolean): { name: string; type?: TemplateFieldType; group?: 'sum' } {
  if (name.startsWith('sum_amount') && list) return { name: name.slice(4), type: 'float', group: 'sum' };
  if (name.startsWith('date') || name.endsWith('date')) return { name, type: 'date' };
  if (name.startsWith('amount')) return { name, type: 'float' };
  return { name };
}

/** Confidence of a template value: lower when several different matches were left as a list or picked from. */
function regexConfidence(distinct: number, grouped: boolean): number {
  if (distinct <= 1) return 0.95;
  return grouped ? 0.85 : 0.7;
}

/** Applies a template (its fields, then the lines and tables plugins). */
export function runTemplate(template: TemplateDef, text: string, opts: ApplyTemplateOptions = {}): TemplateRunResult {
  const budgetMs = opts.budgetMs ?? DEFAULT_TEMPLATE_BUDGET_MS;
  const budget = opts.budget ?? new RegexBudget(budgetMs, opts.now ? { now: opts.now } : {});
  const warnings: string[] = [];
  const trace: FieldTrace[] = [];
  const options = template.options ?? {};
  const prepared =
    opts.prepared && opts.prepared.source === text
      ? opts.prepared.text(template)
      : prepareText(text, template.options, budget);
  let budgetWarned = false;
  const ctx: EngineContext = {
    convert: templateConverter(options),
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
  const textFor = (area: TemplateArea | undefined): string => {
    if (!area || !opts.areaText) return prepared;
    // As invoice2data: the area's text is read as pdftotext gives it, without the options.
    return opts.areaText(area) ?? prepared;
  };

  const fields: ExtractedFields = {};
  // Values the template states rather than reads are marked so no position is invented for them.
  fields.issuer = { ...field(template.issuer, 1, 'template'), computed: true };
  const set = (name: string, value: FieldValue, confidence: number): void => {
    fields[name] = field(value, confidence, 'template');
  };
  const stated = (name: string, value: FieldValue): void => {
    fields[name] = { ...field(value, 1, 'template'), computed: true };
  };

  for (const [name, spec] of Object.entries(template.fields ?? {})) {
    if (ctx.overBudget()) {
      trace.push({ field: name, parser: 'regex', status: 'skipped', reason: 'time budget spent' });
      continue;
    }
    if (typeof spec !== 'object' || Array.isArray(spec)) {
      if (name.startsWith('static_') && !Array.isArray(spec)) {
        stated(name.slice(7), spec as string | number);
        trace.push({ field: name.slice(7), parser: 'static', status: 'ok' });
        continue;
      }
      const legacy = legacyType(name, Array.isArray(spec));
      runRegex(
        legacy.name,
        { regexes: Array.isArray(spec) ? spec : [String(spec)], type: legacy.type, group: legacy.group },
        prepared,
      );
      continue;
    }
    if (spec.parser === 'static') {
      stated(name, typeof spec.value === 'boolean' ? String(spec.value) : spec.value);
      trace.push({ field: name, parser: 'static', status: 'ok' });
    } else if (spec.parser === 'lines') {
      const rules: TemplateLinesRule[] = spec.rules ?? [spec as TemplateLinesRule];
      const rows = readLines(rules, textFor(spec.area), ctx, `fields.${name}`);
      if (rows.length > 0) {
        set(name, rows, 0.9);
        trace.push({ field: name, parser: 'lines', status: 'ok' });
      } else
        trace.push({
          field: name,
          parser: 'lines',
          status: 'no_match',
          reason: 'no block between start and end, or no line matched',
        });
    } else {
      const source = textFor(spec.area);
      runRegex(
        name,
        { regexes: Array.isArray(spec.regex) ? spec.regex : [spec.regex], type: spec.type, group: spec.group },
        source,
      );
      if (fields[name] === undefined && spec.tax_rate !== undefined) byTaxRate(name, spec.tax_rate, source);
    }
  }
  if (options.currency) stated('currency', normaliseCurrency(options.currency));

  if (template.lines !== undefined && !ctx.overBudget()) {
    const rules = Array.isArray(template.lines) ? template.lines : [template.lines];
    const rows = readLines(rules, prepared, ctx, 'lines');
    if (rows.length > 0) set('lines', rows, 0.9);
    trace.push(
      rows.length > 0
        ? { field: 'lines', parser: 'lines', status: 'ok' }
        : {
            field: 'lines',
            parser: 'lines',
            status: 'no_match',
            reason: 'no block between start and end, or no line matched',
          },
    );
  }
  (template.tables ?? []).forEach((table, i) => {
    if (ctx.overBudget()) return;
    const cols = readTable(table, prepared, ctx, `tables[${i}]`);
    if (!cols) {
      trace.push({
        field: `tables[${i}]`,
        parser: 'tables',
        status: 'no_match',
        reason: 'start or end not found, no body line matched, or a date did not parse',
      });
      return;
    }
    for (const [k, v] of Object.entries(cols)) {
      set(k, v as FieldValue, 0.9);
      // A column summed or joined over the table's rows is not printed anywhere as such.
      const g = table.fields?.[k]?.group;
      if (g === 'sum' || g === 'join') fields[k].computed = true;
    }
    trace.push({ field: `tables[${i}]`, parser: 'tables', status: 'ok' });
  });
  stated('desc', `Invoice from ${template.issuer}`);
  return { fields, missingRequired: missingRequiredFields(template, fields), warnings, trace };

  function runRegex(name: string, plan: RegexFieldPlan, source: string): void {
    const r = readRegexField(plan, source, ctx, `fields.${name}`);
    if (r.status === 'ok') {
      set(name, r.value as FieldValue, regexConfidence(r.distinct, plan.group !== undefined));
      // Several matches summed or joined: a value worked out, not printed (no position).
      if ((plan.group === 'sum' || plan.group === 'join') && r.matches > 1) fields[name].computed = true;
      trace.push({ field: name, parser: 'regex', status: 'ok' });
    } else trace.push({ field: name, parser: 'regex', status: r.status, reason: r.reason });
  }

  /** The pattern found nothing: the figure that is a net amount plus the issuer's tax. */
  function byTaxRate(name: string, rate: number, source: string): void {
    const value = figureByTaxRate(source, rate, options.decimal_separator);
    if (value === null) return;
    // Less certain than a labelled match: the figure is chosen by arithmetic alone.
    set(name, value, 0.85);
    const last = [...trace].reverse().find((t) => t.field === name);
    const reason = `pattern found nothing; read as the figure that is a net amount plus ${+(rate * 100).toFixed(1)}% tax`;
    if (last) Object.assign(last, { status: 'ok', reason });
    else trace.push({ field: name, parser: 'regex', status: 'ok', reason });
  }
}

/** Required fields (default date, amount, invoice_number, issuer) absent from `fields`. */
export function missingRequiredFields(template: TemplateDef, fields: ExtractedFields): string[] {
  const required = template.required_fields ?? DEFAULT_REQUIRED_FIELDS;
  return required.filter((r) => fields[r] === undefined || fields[r].value === null);
}

/** Applies a template and returns its fields (see {@link runTemplate} for warnings and missing fields). */
export function applyTemplate(template: TemplateDef, text: string, opts: ApplyTemplateOptions = {}): ExtractedFields {
  return runTemplate(template, text, opts).fields;
}
