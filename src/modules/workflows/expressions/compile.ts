// Syntax checks for JSONata expressions and templated strings, done where the graph is
// validated (parsing is linear in the expression's length, which is bounded).
import { regexProblems } from './bounded.js';
import { loadJsonata } from './load-jsonata.js';

/** Longest expression or template accepted, in characters. */
export const MAX_EXPRESSION_LENGTH = 4096;
/** Most expression and template characters in one workflow graph, all nodes together. */
export const MAX_GRAPH_EXPRESSION_CHARS = 64 * 1024;
/**
 * Expressions up to this length are parsed on the caller's thread at save time; longer ones in
 * an evaluator process (JSONata's parser is superlinear in path length: 1,300 steps take ~40 ms).
 */
export const INLINE_CHECK_MAX = 512;

/** Returns a message naming what is wrong, or null when `expr` parses. */
export async function expressionProblem(expr: string): Promise<string | null> {
  if (expr.trim() === '') return 'must not be empty';
  if (expr.length > MAX_EXPRESSION_LENGTH) return `is longer than ${MAX_EXPRESSION_LENGTH} characters`;
  const jsonata = await loadJsonata();
  try {
    return regexProblems(jsonata(expr).ast());
  } catch (err) {
    const e = err as { message?: string; position?: number };
    return `is not a valid JSONata expression: ${e.message ?? String(err)}${typeof e.position === 'number' ? ` (at character ${e.position})` : ''}`;
  }
}

const PLACEHOLDER = /\{\{([\s\S]*?)\}\}/g;

/**
 * A templated string (`"Invoice {{ document.fields.invoice_number.value }}"`) as one JSONata
 * expression that concatenates its parts; a placeholder that yields nothing becomes ''.
 */
export function templateToExpression(template: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    if (m.index > last) parts.push(JSON.stringify(template.slice(last, m.index)));
    parts.push(`$string((${m[1]}))`);
    last = m.index + m[0].length;
  }
  if (last < template.length || parts.length === 0) parts.push(JSON.stringify(template.slice(last)));
  return parts.join(' & ');
}

/** Whether a template has placeholders at all (plain strings need no evaluation). */
export function isTemplated(s: string): boolean {
  return s.includes('{{');
}

/** Like {@link expressionProblem} for a templated string: checks each placeholder. */
export async function templateProblem(template: string): Promise<string | null> {
  if (template.length > MAX_EXPRESSION_LENGTH) return `is longer than ${MAX_EXPRESSION_LENGTH} characters`;
  const opened = (template.match(/\{\{/g) ?? []).length;
  const closed = [...template.matchAll(PLACEHOLDER)].length;
  if (opened !== closed) return 'has a {{ without its closing }}';
  for (const m of template.matchAll(PLACEHOLDER)) {
    const p = await expressionProblem(m[1]);
    if (p) return `placeholder {{${m[1]}}} ${p}`;
  }
  return null;
}
