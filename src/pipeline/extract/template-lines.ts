/**
 * Template table blocks: the text between `start` and `end` is read line by line; `line`
 * matches a row (its named groups become the columns), `first_line`/`last_line` delimit rows
 * that span several lines, `skip_line` drops noise. Several start/end sections are all read.
 */
import { compileUserRegex, type RegexBudget, type UserMatch, type UserRegex } from '../../lib/user-regex/index.js';
import type { TemplateFieldType, TemplateLinesBlock } from './template-schema.js';
import type { FieldRow } from './types.js';

/** Converts one captured string to the template's declared type; null when it does not parse. */
export type Converter = (raw: string, type: TemplateFieldType) => string | number | null;

/** Shared state for one template application: conversion and the time budget. */
export interface EngineContext {
  convert: Converter;
  /** True once the time budget is spent; callers stop starting new regex work. */
  overBudget: () => boolean;
  /** Bounds every regex call of this template run. */
  budget: RegexBudget;
  warnings: string[];
}

const MAX_ROWS = 2000;

function compileOrWarn(ctx: EngineContext, what: string, pattern: string | undefined, flags: string): UserRegex | null {
  if (pattern === undefined) return null;
  const r = compileUserRegex(pattern, { flags });
  if (!r.ok) {
    ctx.warnings.push(`${what}: ${r.message}`);
    return null;
  }
  return r.regex;
}

function groups(m: UserMatch): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.named)) if (v !== undefined) out[k] = v.trim();
  return out;
}

function merge(row: Record<string, string>, add: Record<string, string>): void {
  for (const [k, v] of Object.entries(add)) {
    // A column continued on the next line (a wrapped description) is concatenated.
    row[k] = row[k] !== undefined && row[k] !== '' ? `${row[k]}\n${v}` : v;
  }
}

function typed(row: Record<string, string>, block: TemplateLinesBlock, ctx: EngineContext): FieldRow {
  const out: FieldRow = {};
  for (const [k, v] of Object.entries(row)) {
    const t = block.types?.[k];
    out[k] = t ? ctx.convert(v, t) : v;
  }
  return out;
}

/** Reads every row of one block from `text`; `label` names the block in warnings. */
export function readLinesBlock(block: TemplateLinesBlock, text: string, ctx: EngineContext, label: string): FieldRow[] {
  const start = compileOrWarn(ctx, `${label}.start`, block.start, 'm');
  const end = compileOrWarn(ctx, `${label}.end`, block.end, 'm');
  const line = compileOrWarn(ctx, `${label}.line`, block.line, '');
  const first = compileOrWarn(ctx, `${label}.first_line`, block.first_line, '');
  const last = compileOrWarn(ctx, `${label}.last_line`, block.last_line, '');
  const skips = (block.skip_line ?? []).map((p, i) => compileOrWarn(ctx, `${label}.skip_line[${i}]`, p, '')).filter((r): r is UserRegex => r !== null);
  if (!start || !end || !line) return [];

  const rows: FieldRow[] = [];
  let pos = 0;
  while (pos <= text.length && rows.length < MAX_ROWS && !ctx.overBudget()) {
    const s = start.exec(text, ctx.budget, pos);
    if (!s) break;
    const bodyStart = s.end;
    const e = end.exec(text, ctx.budget, bodyStart);
    if (!e) break;
    readBody(text.slice(bodyStart, e.index));
    pos = Math.max(e.end, bodyStart + 1);
  }
  return rows;

  function readBody(body: string): void {
    let current: Record<string, string> | null = null;
    const flush = (): void => {
      if (current && Object.keys(current).length > 0) rows.push(typed(current, block, ctx));
      current = null;
    };
    for (const raw of body.split('\n')) {
      if (rows.length >= MAX_ROWS) break;
      if (raw.trim() === '' || skips.some((re) => re.test(raw, ctx.budget))) continue;
      const f = first?.exec(raw, ctx.budget);
      if (f) {
        flush();
        current = groups(f);
        continue;
      }
      const l = last?.exec(raw, ctx.budget);
      if (l) {
        current ??= {};
        merge(current, groups(l));
        flush();
        continue;
      }
      const m = line?.exec(raw, ctx.budget);
      if (!m) continue;
      if (first || last) {
        current ??= {};
        merge(current, groups(m));
      } else rows.push(typed(groups(m), block, ctx));
    }
    flush();
  }
}
