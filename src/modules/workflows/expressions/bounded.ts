// JSONata with its allocating built-ins bounded before they allocate. The evaluator process has
// a hard memory cap (a bomb costs that process, never the service), but a clear step error is
// better than a killed process, so the usual bombs fail fast here:
// - `$pad`, `$join` and `$string` refuse a result longer than `maxStringChars` before building it;
// - every evaluation step's result is measured (JSONata's exit hook): a string longer than
//   `maxStringChars` or an array past `maxItems` stops the expression, so repeated doubling with
//   `&` stops at twice the bound (V8 concatenates without copying until something flattens);
// - ranges and sequences are capped by JSONata's own `sequence` guardrail;
// - regular expressions run on the linear-time engine (re2js) that template patterns use, with a
//   per-call work ceiling, so `/(x+x+)+y/` is either refused or runs in linear time;
// - `$eval` is not available (it would parse and run text that no save-time check has seen).
import type Jsonata from 'jsonata';
import { compileUserRegex, RegexBudget, type UserRegex } from '../../../lib/user-regex/index.js';
import { loadJsonata } from './load-jsonata.js';

export interface BoundOptions {
  /** JSONata's guardrail, checked before each evaluation step, ms. */
  timeoutMs: number;
  /** Longest string any step may produce. */
  maxStringChars: number;
  /** Most items in any array a step produces (also JSONata's sequence and range bound). */
  maxItems: number;
}

/** What a bound throws; outcome.ts keeps the code. */
export const LIMIT_CODE = 'EXPRESSION_LIMIT';

const limit = (message: string, position?: number) => ({ code: LIMIT_CODE, message, position });

/**
 * A JSONata regex engine over re2js: JSONata constructs one per regex literal and calls `exec`
 * with `lastIndex` set to where to search from (it reads `lastIndex` back for the next match).
 */
class LinearRegex {
  lastIndex = 0;
  private readonly re: UserRegex;
  private readonly source: string;

  constructor(r: RegExp) {
    this.source = r.source;
    const c = compileUserRegex(r.source, { dialect: 'javascript', flags: r.flags });
    if (!c.ok) throw regexRefusal(r.source, c.message);
    this.re = c.regex;
  }

  exec(str: string): RegExpExecArray | null {
    const budget = new RegexBudget();
    const m = this.re.exec(str, budget, this.lastIndex);
    if (!m) {
      if (budget.lastRefusal) throw limit(`regular expression /${this.source.slice(0, 60)}/: ${budget.lastRefusal}`);
      this.lastIndex = 0;
      return null;
    }
    this.lastIndex = m.end;
    const arr = [m.text, ...m.groups.map((g) => g ?? '')] as unknown as RegExpExecArray;
    arr.index = m.index;
    arr.input = str;
    return arr;
  }
}

function regexRefusal(source: string, why: string) {
  return {
    code: 'EXPRESSION_REGEX',
    message: `the regular expression /${source.slice(0, 60)}/ cannot be used: ${why} (workflow expressions run regular expressions on a linear-time engine: no backreferences or lookaheads)`,
  };
}

/** Problems of the regex literals in a parsed expression (the save-time check). */
export function regexProblems(ast: unknown): string | null {
  const seen = new Set<unknown>();
  const walk = (n: unknown): string | null => {
    if (!n || typeof n !== 'object' || seen.has(n)) return null;
    seen.add(n);
    const node = n as { type?: string; value?: unknown };
    if (node.type === 'regex' && node.value instanceof RegExp) {
      const c = compileUserRegex(node.value.source, { dialect: 'javascript', flags: node.value.flags });
      if (!c.ok) return regexRefusal(node.value.source, c.message).message;
    }
    for (const v of Object.values(n)) {
      const p = Array.isArray(v) ? v.map(walk).find((x) => x) : walk(v);
      if (p) return p;
    }
    return null;
  };
  return walk(ast);
}

const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** A lower bound on the JSON length of `v`, stopping as soon as it passes `max`. */
function jsonSizeOver(v: unknown, max: number): boolean {
  let size = 0;
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'string') size += x.length + 2;
    else if (Array.isArray(x)) {
      size += 2 + x.length;
      for (const e of x) stack.push(e);
    } else if (x && typeof x === 'object') {
      for (const [k, e] of Object.entries(x)) {
        size += k.length + 4;
        stack.push(e);
      }
    } else size += 8;
    if (size > max) return true;
  }
  return false;
}

let builtinString: ((arg: unknown, prettify?: boolean) => string | undefined) | undefined;
let jsonata: typeof Jsonata | undefined;

/** Loads JSONata and the built-ins that the bounded versions delegate to (once per process). */
export async function loadBuiltins(): Promise<void> {
  const j = await loadJsonata();
  const f = (await j('$string').evaluate({})) as { implementation: typeof builtinString };
  builtinString = f.implementation;
  jsonata = j;
}

const EXIT_HOOK = Symbol.for('jsonata.__evaluate_exit');

/** Compiles `expr` with the bounds above. Call {@link loadBuiltins} once before compiling. */
export function compileBounded(expr: string, o: BoundOptions): Jsonata.Expression {
  if (!jsonata) throw new Error('compileBounded before loadBuiltins');
  const c = jsonata(expr, {
    timeout: o.timeoutMs,
    stack: 300,
    sequence: o.maxItems,
    RegexEngine: LinearRegex as unknown as RegExpConstructor,
  } as Jsonata.JsonataOptions);
  const max = o.maxStringChars;
  const tooLong = (what: string, n: number) =>
    limit(`${what} would be ${n} characters long; expressions may produce at most ${max}`);

  c.registerFunction(
    'pad',
    (str: string | undefined, width: number, char?: string) => {
      if (str === undefined) return undefined;
      const fill = char === undefined || char.length === 0 ? ' ' : char;
      const w = Math.abs(Math.trunc(width));
      if (w > max) throw tooLong('$pad', w);
      const n = w - codePoints(str);
      if (n <= 0) return str;
      const fillPoints = codePoints(fill);
      let padding = fill.repeat(Math.ceil(n / fillPoints));
      // Code points, as JSONata counts them (slicing code units is the same without surrogates).
      if (fillPoints > 1)
        padding = fillPoints === fill.length ? padding.slice(0, n) : Array.from(padding).slice(0, n).join('');
      return width > 0 ? str + padding : padding + str;
    },
    '<s-ns?:s>',
  );
  c.registerFunction(
    'join',
    (strs: string[] | undefined, sep?: string) => {
      if (strs === undefined) return undefined;
      const s = sep ?? '';
      let n = s.length * Math.max(0, strs.length - 1);
      for (const x of strs) n += x.length;
      if (n > max) throw tooLong('$join', n);
      return strs.join(s);
    },
    '<a<s>s?:s>',
  );
  c.registerFunction(
    'string',
    (arg: unknown, prettify?: boolean) => {
      if (typeof arg === 'string' || arg === undefined) return arg;
      // Pretty printing indents: allow for it before measuring against the bound.
      if (jsonSizeOver(arg, prettify ? max / 4 : max)) throw limit(`$string of a value larger than ${max} characters`);
      return builtinString!(arg, prettify);
    },
    '<x-b?:s>',
  );
  c.registerFunction(
    'eval',
    () => {
      throw limit('$eval is not available in workflow expressions');
    },
    '<sx?:x>',
  );
  (c.assign as (name: unknown, value: unknown) => void)(
    EXIT_HOOK,
    (node: { position?: number }, _input: unknown, _env: unknown, result: unknown) => {
      if (typeof result === 'string') {
        if (result.length > max) throw tooLong('a value', result.length);
      } else if (Array.isArray(result) && result.length > o.maxItems) {
        throw limit(`an array of ${result.length} items; expressions may produce at most ${o.maxItems}`, node.position);
      }
    },
  );
  return c;
}
