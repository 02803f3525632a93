// Simple expressions evaluated on the calling thread, without a round trip to an evaluator process.
// Most conditions and mappings are a path, a literal, a comparison or a little arithmetic; sending
// each to a thread costs more than evaluating it. Only expressions whose every step is bounded by
// construction qualify, and they still run under bounds:
// - the expression: at most FAST_MAX_EXPRESSION characters, and its syntax tree may hold only
//   field paths without filters, wildcards or parent steps, literals, the operators below, array
//   and object constructors, `? :`, parentheses and a few built-ins that do one linear pass
//   ($string, $boolean, $number, $exists, $not). No functions of its own, no regular expressions,
//   no ranges, no sorting or grouping: nothing whose cost is not linear in its input;
// - the input: at most FAST_MAX_INPUT characters of JSON (larger inputs go to a thread);
// - the work: at most FAST_MAX_STEPS evaluation steps (counted by JSONata's entry hook, so the
//   count does not depend on how busy the machine is), and JSONata's time guardrail, checked
//   before every step, as a backstop; an expression that runs out of either is evaluated again on
//   a thread (one that runs out of steps a few times goes to a thread directly from then on);
// - the output: the same size bound as on a thread.
// Anything else (and every hostile expression) runs in an evaluator process that can be killed (evaluator.ts).
import type jsonata from 'jsonata';
import { loadJsonata } from './load-jsonata.js';

/** Longest expression evaluated on the calling thread, in characters. */
export const FAST_MAX_EXPRESSION = 256;
/** Largest input (JSON characters) evaluated on the calling thread. */
export const FAST_MAX_INPUT = 64 * 1024;
/** Evaluation steps (nodes of the tree evaluated, per input item) allowed on the calling thread. */
export const FAST_MAX_STEPS = 10_000;
/** Times an expression may run out of time here before it always goes to a thread. */
const STRIKES = 3;
/** What the step budget throws (outcome.ts turns it into EXPRESSION_STEP_BUDGET). */
export const STEP_BUDGET_CODE = 'FAST_STEP_BUDGET';
// JSONata calls a function bound under this symbol before evaluating each node.
const ENTRY_HOOK = Symbol.for('jsonata.__evaluate_entry');

/** Counts the steps of each evaluation (keyed by its base frame) and stops one past the budget. */
function countSteps(c: jsonata.Expression): void {
  const steps = new WeakMap<object, number>();
  const hook = (_expr: unknown, _input: unknown, env: { base: object }) => {
    const n = (steps.get(env.base) ?? 0) + 1;
    if (n > FAST_MAX_STEPS) throw { code: STEP_BUDGET_CODE, message: `more than ${FAST_MAX_STEPS} evaluation steps` };
    steps.set(env.base, n);
  };
  (c.assign as (name: unknown, value: unknown) => void)(ENTRY_HOOK, hook);
}

const BINARY = new Set(['+', '-', '*', '/', '%', '=', '!=', '<', '<=', '>', '>=', 'and', 'or', '&', 'in']);
const FUNCTIONS = new Set(['string', 'boolean', 'number', 'exists', 'not']);

type Ast = { type: string; value?: unknown; [k: string]: unknown };

// Each node may carry only these keys: any other (stages, predicate, group, focus, index, tuple,
// keepArray, ...) means a construct the fast path does not take.
const KEYS: Record<string, readonly string[]> = {
  string: ['type', 'value', 'position'],
  number: ['type', 'value', 'position'],
  value: ['type', 'value', 'position'],
  name: ['type', 'value', 'position'],
  variable: ['type', 'value', 'position'],
  path: ['type', 'steps', 'position'],
  binary: ['type', 'value', 'position', 'lhs', 'rhs'],
  unary: ['type', 'value', 'position', 'expression', 'expressions', 'lhs', 'consarray'],
  condition: ['type', 'position', 'condition', 'then', 'else'],
  block: ['type', 'position', 'expressions'],
  function: ['type', 'value', 'position', 'arguments', 'procedure'],
};

function simple(n: unknown, inPath = false): boolean {
  if (!n || typeof n !== 'object') return false;
  const node = n as Ast;
  const keys = KEYS[node.type];
  if (!keys || Object.entries(node).some(([k, v]) => v !== undefined && !keys.includes(k))) return false;
  switch (node.type) {
    case 'string':
    case 'number':
    case 'value':
      return true;
    case 'name':
      return true;
    case 'variable':
      // `$` (the input) only at the start of a path; no other variables exist here.
      return node.value === '' && inPath;
    case 'path':
      return (
        Array.isArray(node.steps) &&
        node.steps.length > 0 &&
        node.steps.every(
          (s, i) => ((s as Ast)?.type === 'name' || (i === 0 && (s as Ast)?.type === 'variable')) && simple(s, true),
        )
      );
    case 'binary':
      return BINARY.has(node.value as string) && simple(node.lhs) && simple(node.rhs);
    case 'unary':
      if (node.value === '-') return simple(node.expression);
      if (node.value === '[') return Array.isArray(node.expressions) && node.expressions.every((e) => simple(e));
      if (node.value === '{') {
        return (
          Array.isArray(node.lhs) &&
          node.lhs.every(
            (pair) =>
              Array.isArray(pair) && pair.length === 2 && (pair[0] as Ast)?.type === 'string' && simple(pair[1]),
          )
        );
      }
      return false;
    case 'condition':
      return simple(node.condition) && simple(node.then) && (node.else === undefined || simple(node.else));
    case 'block':
      return Array.isArray(node.expressions) && node.expressions.length === 1 && simple(node.expressions[0]);
    case 'function': {
      const p = node.procedure as Ast | undefined;
      return (
        node.value === '(' &&
        p?.type === 'variable' &&
        Object.entries(p).every(([k, v]) => v === undefined || KEYS.variable.includes(k)) &&
        FUNCTIONS.has(p.value as string) &&
        Array.isArray(node.arguments) &&
        node.arguments.length <= 2 &&
        node.arguments.every((a) => simple(a))
      );
    }
    default:
      return false;
  }
}

export interface FastPath {
  /** The compiled expression when it may run on the calling thread, else null. */
  compiled(expr: string): Promise<jsonata.Expression | null>;
  /**
   * `expr` used up its step budget here (it is evaluated again on a thread). After STRIKES times
   * it goes to the threads directly from then on. (Running out of wall-clock time is no strike: on
   * a busy thread other work runs between an evaluation's steps.)
   */
  demote(expr: string): void;
}

/** `timeoutMs`: the guardrail of one evaluation on the calling thread. */
export function createFastPath(timeoutMs: number): FastPath {
  const cache = new Map<string, jsonata.Expression | null>();
  const strikes = new Map<string, number>();
  const MAX = 1000;
  return {
    async compiled(expr) {
      const hit = cache.get(expr);
      if (hit !== undefined) return hit;
      let c: jsonata.Expression | null = null;
      if (expr.length <= FAST_MAX_EXPRESSION) {
        const jsonata = await loadJsonata();
        try {
          const parsed = jsonata(expr, { timeout: timeoutMs, stack: 300, sequence: 100_000 });
          c = simple(parsed.ast()) ? parsed : null;
          if (c) countSteps(c);
        } catch {
          c = null; // a syntax error: the thread reports it like any other
        }
      }
      if (cache.size >= MAX) cache.delete(cache.keys().next().value as string);
      cache.set(expr, c);
      return c;
    },
    demote(expr) {
      const n = (strikes.get(expr) ?? 0) + 1;
      if (n < STRIKES) {
        if (strikes.size >= MAX) strikes.clear();
        strikes.set(expr, n);
        return;
      }
      strikes.delete(expr);
      if (cache.size >= MAX) cache.delete(cache.keys().next().value as string);
      cache.set(expr, null);
    },
  };
}
