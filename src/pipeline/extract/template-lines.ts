/**
 * The `lines` parser, with invoice2data's semantics: for each rule, blocks run from a `start`
 * match to the next `end` match (searched in the text after the start, which is cut off, so
 * `^` anchors there) and blocks repeat until no start is left. Inside a block each non-empty
 * line is tested against `first_line` (a new row; when neither first_line nor last_line is
 * given, `line` plays that part), then `last_line` (closes the row), `skip_line`, then `line`
 * (adds to the row; a column seen twice is joined with a newline). `types` convert columns.
 */
import { compileUserRegex, type RegexBudget, type UserMatch, type UserRegex } from '../../lib/user-regex/index.js';
import { truthy, type Converter } from './template-convert.js';
import type { TemplateFieldType, TemplateLinesRule } from './template-schema.js';
import type { FieldRow } from './types.js';

/** Shared state for one template application. */
export interface EngineContext {
  convert: Converter;
  /** True once the time budget is spent; callers stop starting new regex work. */
  overBudget: () => boolean;
  /** Bounds every regex call of this template run. */
  budget: RegexBudget;
  warnings: string[];
}

const MAX_ROWS = 2000;
const MAX_BLOCKS = 500;

/** Compiles a pattern already validated at save time; a stale stored one is reported, not thrown. */
export function compiled(ctx: EngineContext, what: string, pattern: string): UserRegex | null {
  const r = compileUserRegex(pattern);
  if (r.ok) return r.regex;
  ctx.warnings.push(`${what}: ${r.message}`);
  return null;
}

function compileAll(ctx: EngineContext, what: string, p: string | string[] | undefined): UserRegex[] | undefined {
  if (p === undefined) return undefined;
  const list = Array.isArray(p) ? p : [p];
  return list
    .map((x, i) => compiled(ctx, Array.isArray(p) ? `${what}[${i}]` : what, x))
    .filter((r): r is UserRegex => r !== null);
}

function firstMatch(res: UserRegex[], line: string, budget: RegexBudget): UserMatch | null {
  for (const re of res) {
    const m = re.exec(line, budget);
    if (m) return m;
  }
  return null;
}

/** Named groups of a match, stripped, a group that took no part as "". */
function named(m: UserMatch): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.named)) out[k] = v === undefined ? '' : v.trim();
  return out;
}

function appendRow(row: Record<string, string>, m: UserMatch): void {
  for (const [k, v] of Object.entries(named(m))) {
    const prev = row[k] ?? '';
    row[k] = `${prev}${prev ? '\n' : ''}${v}`;
  }
}

/** Splits `text` by a line-separator pattern (default a newline). */
export function splitBy(text: string, sep: UserRegex | null, budget: RegexBudget): string[] {
  if (!sep) return text.split('\n');
  const out: string[] = [];
  let last = 0;
  for (const m of sep.matchAll(text, budget, Number.MAX_SAFE_INTEGER)) {
    if (m.end === m.index) continue;
    out.push(text.slice(last, m.index));
    last = m.end;
  }
  out.push(text.slice(last));
  return out;
}

/** Applies `types` to the rows; a value that does not convert is left as text (with a warning). */
export function typeRows(
  rows: Array<Record<string, string>>,
  types: Record<string, TemplateFieldType> | undefined,
  ctx: EngineContext,
  label: string,
): FieldRow[] {
  return rows.map((row) => {
    const out: FieldRow = {};
    for (const [k, v] of Object.entries(row)) {
      const t = types?.[k];
      if (!t) {
        out[k] = v;
        continue;
      }
      const c = ctx.convert(v, t);
      if (c.ok) out[k] = c.value;
      else {
        ctx.warnings.push(`${label}.${k}: ${c.reason}`);
        out[k] = v;
      }
    }
    return out;
  });
}

function parseBlock(
  rule: TemplateLinesRule,
  body: string,
  ctx: EngineContext,
  label: string,
): Array<Record<string, string>> {
  const line = compileAll(ctx, `${label}.line`, rule.line) ?? [];
  let first = compileAll(ctx, `${label}.first_line`, rule.first_line);
  const last = compileAll(ctx, `${label}.last_line`, rule.last_line);
  const skip = compileAll(ctx, `${label}.skip_line`, rule.skip_line) ?? [];
  if (!first && !last) first = line;
  const sep = rule.line_separator !== undefined ? compiled(ctx, `${label}.line_separator`, rule.line_separator) : null;
  const rows: Array<Record<string, string>> = [];
  let current: Record<string, string> = {};
  let inRow = false;
  for (const text of splitBy(body, sep, ctx.budget)) {
    if (rows.length >= MAX_ROWS || ctx.overBudget()) break;
    if (text.replace(/[\n\r]+$/, '').replace(/^[\n\r]+/, '') === '') continue;
    if (first) {
      const m = firstMatch(first, text, ctx.budget);
      if (m) {
        if (Object.keys(current).length > 0) rows.push(current);
        current = named(m);
        inRow = true;
        continue;
      }
    }
    if (!inRow) continue;
    if (last) {
      const m = firstMatch(last, text, ctx.budget);
      if (m) {
        appendRow(current, m);
        if (Object.keys(current).length > 0) rows.push(current);
        current = {};
        inRow = false;
        continue;
      }
    }
    if (skip.some((re) => re.test(text, ctx.budget))) continue;
    const m = firstMatch(line, text, ctx.budget);
    if (m) appendRow(current, m);
  }
  if (Object.keys(current).length > 0) rows.push(current);
  return rows;
}

/** Every row one rule yields from `text`; `label` names the rule in warnings. */
export function readLinesRule(rule: TemplateLinesRule, text: string, ctx: EngineContext, label: string): FieldRow[] {
  const start = compiled(ctx, `${label}.start`, rule.start);
  const end = compiled(ctx, `${label}.end`, rule.end);
  if (!start || !end) return [];
  const rows: Array<Record<string, string>> = [];
  let content = text;
  for (let blocks = 0; blocks < MAX_BLOCKS && rows.length < MAX_ROWS && !ctx.overBudget(); blocks++) {
    const s = start.exec(content, ctx.budget);
    if (!s) break;
    content = content.slice(s.end);
    const e = end.exec(content, ctx.budget);
    if (!e) break;
    rows.push(...parseBlock(rule, content.slice(0, e.index), ctx, label));
    // An empty end match would never move on; invoice2data would loop forever there.
    content = content.slice(Math.max(e.end, 1));
  }
  return typeRows(rows.slice(0, MAX_ROWS), rule.types, ctx, label);
}

/** Several rules: their rows in rule order (an empty list when nothing matched). */
export function readLines(
  rules: readonly TemplateLinesRule[],
  text: string,
  ctx: EngineContext,
  label: string,
): FieldRow[] {
  const out: FieldRow[] = [];
  rules.forEach((r, i) => out.push(...readLinesRule(r, text, ctx, rules.length > 1 ? `${label}.rules[${i}]` : label)));
  return out;
}

export { truthy };
