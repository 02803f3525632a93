/**
 * The `regex` parser, with invoice2data's semantics: every regex's `findall` results are
 * collected (a regex's one capture group, or the whole match without groups; a regex with
 * several groups fails the field), converted by `type`, then either combined by `group`
 * (falsy values dropped first) or de-duplicated in order; one value is returned as itself,
 * several as a list.
 */
import { compiled, type EngineContext } from './template-lines.js';
import type { TemplateFieldType, TemplateGroup } from './template-schema.js';
import { truthy } from './template-convert.js';

export type Scalar = string | number | null;
export type RegexFieldValue = Scalar | Scalar[];

export type RegexFieldOutcome =
  | { status: 'ok'; value: RegexFieldValue; matches: number; distinct: number }
  | { status: 'no_match' | 'failed' | 'empty'; reason: string };

/** Python's comparison for min/max: numbers with numbers, strings with strings. */
function compare(a: Scalar, b: Scalar): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

/**
 * invoice2data's grouping: falsy values are dropped, then sum/min/max/first/last/join. Returns
 * undefined (with a warning) where Python would raise (summing text, comparing text to numbers).
 */
export function combineValues(
  values: readonly Scalar[],
  group: TemplateGroup,
  ctx: EngineContext,
  label: string,
): RegexFieldValue | undefined {
  const kept = values.filter(truthy);
  if (kept.length === 0) return [];
  switch (group) {
    case 'sum': {
      if (kept.some((v) => typeof v !== 'number')) {
        ctx.warnings.push(`${label}: group sum needs numbers (add type: float)`);
        return undefined;
      }
      return (kept as number[]).reduce((a, b) => a + b, 0);
    }
    case 'min':
    case 'max': {
      let best = kept[0];
      for (const v of kept.slice(1)) {
        const c = compare(v, best);
        if (c === null) {
          ctx.warnings.push(`${label}: group ${group} cannot compare text with numbers`);
          return undefined;
        }
        if (group === 'min' ? c < 0 : c > 0) best = v;
      }
      return best;
    }
    case 'first':
      return kept[0];
    case 'last':
      return kept[kept.length - 1];
    case 'join':
      return kept.map(String).join(' ');
  }
}

export interface RegexFieldPlan {
  regexes: string[];
  type?: TemplateFieldType;
  group?: TemplateGroup;
}

/** Runs one regex field over `text`. */
export function readRegexField(
  plan: RegexFieldPlan,
  text: string,
  ctx: EngineContext,
  label: string,
): RegexFieldOutcome {
  const raw: string[] = [];
  for (const [i, pattern] of plan.regexes.entries()) {
    if (ctx.overBudget()) return { status: 'failed', reason: 'time budget spent before this field' };
    const re = compiled(ctx, plan.regexes.length > 1 ? `${label}[${i}]` : label, pattern);
    if (!re) continue;
    if (re.groupCount > 1) {
      return {
        status: 'failed',
        reason: `regex ${plan.regexes.length > 1 ? `[${i}] ` : ''}has ${re.groupCount} capture groups; a field takes one (make the others non-capturing with (?:…))`,
      };
    }
    ctx.budget.lastRefusal = null;
    for (const m of re.matchAll(text, ctx.budget)) raw.push(re.groupCount === 1 ? (m.groups[0] ?? '') : m.text);
    if (ctx.budget.lastRefusal) ctx.warnings.push(`${label}: ${ctx.budget.lastRefusal}`);
  }
  if (raw.length === 0)
    return {
      status: 'no_match',
      reason: plan.regexes.length > 1 ? 'none of the regexes matched' : 'the regex did not match',
    };
  let values: Scalar[] = raw;
  if (plan.type) {
    values = [];
    for (const r of raw) {
      const c = ctx.convert(r, plan.type);
      if (!c.ok) ctx.warnings.push(`${label}: ${c.reason}`);
      else {
        if (c.value === null) ctx.warnings.push(`${label}: could not read "${r.slice(0, 60)}" as ${plan.type}`);
        values.push(c.value);
      }
    }
  }
  const distinct = new Set(values.map((v) => JSON.stringify(v))).size;
  let value: RegexFieldValue;
  if (plan.group) {
    const combined = combineValues(values, plan.group, ctx, label);
    if (combined === undefined)
      return { status: 'failed', reason: `could not combine the matches with group ${plan.group}` };
    value = combined;
  } else {
    const seen = new Set<string>();
    value = values.filter((v) => {
      const k = JSON.stringify(v);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  if (Array.isArray(value) && value.length === 1) value = value[0];
  if (!truthy(value)) {
    const what = plan.type === 'date' ? 'no match read as a date' : 'the match is empty or zero';
    return { status: 'empty', reason: `${what} (invoice2data leaves such a field out)` };
  }
  return { status: 'ok', value, matches: raw.length, distinct };
}
