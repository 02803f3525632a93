/**
 * User-supplied regular expressions on a linear-time engine (re2js, a JavaScript port of RE2).
 * A backtracking engine can take exponential time on patterns like `(a|aa)+$` and JavaScript
 * cannot interrupt a running RegExp, so one template or mail filter could stop the whole
 * process. RE2 matches in time proportional to input length × program size; every call is
 * charged that product up front against a {@link RegexBudget}, so the work per call and per
 * document has a hard ceiling.
 */
import { RE2JS, RE2JSException } from 're2js';
import { fixedString } from './literals.js';
import { translatePattern, type RegexDialect } from './translate.js';

/** Longest pattern accepted. */
export const MAX_PATTERN_LENGTH = 2000;
/** Largest compiled program accepted (the bundled invoice2data templates stay under 300). */
export const MAX_PROGRAM_SIZE = 3000;
/**
 * Most work one call may do, in characters × (program size + {@link CALL_OVERHEAD}). Measured
 * here at 10–60 ns per unit on the worst patterns (NFA with captures or lookbehinds), so a call
 * costs at most about half a second; ordinary templates use a few thousand units per call.
 */
export const MAX_UNITS_PER_CALL = 10_000_000;
/** Per-character cost of a call independent of the program (input decoding, bookkeeping). */
const CALL_OVERHEAD = 10;

export interface UserMatch {
  /** Offset of the match in UTF-16 code units. */
  index: number;
  end: number;
  /** The whole match. */
  text: string;
  /** Capture groups 1..n; `undefined` for a group that did not take part. */
  groups: Array<string | undefined>;
  /** Named groups (Python `(?P<name>…)` or `(?<name>…)`). */
  named: Record<string, string | undefined>;
}

/**
 * Bounds the regex work of one unit of processing (a document's template run, say): a time
 * budget checked before every call, and a per-call ceiling in work units checked before the
 * call starts. Once refused, `exhausted` says why and every later call is refused too.
 */
export class RegexBudget {
  private readonly deadline: number;
  private reason: string | null = null;
  private readonly now: () => number;
  readonly maxUnitsPerCall: number;
  /** The last call refused for its size (the budget itself stays open for other calls). */
  lastRefusal: string | null = null;

  /**
   * @param timeMs wall-clock budget for all calls; default unlimited (only the per-call ceiling applies).
   * @param opts.maxUnitsPerCall ceiling for one call; default {@link MAX_UNITS_PER_CALL}.
   * @param opts.now clock for tests; default `performance.now`.
   */
  constructor(timeMs = Infinity, opts: { maxUnitsPerCall?: number; now?: () => number } = {}) {
    this.now = opts.now ?? (() => performance.now());
    this.deadline = this.now() + timeMs;
    this.maxUnitsPerCall = opts.maxUnitsPerCall ?? MAX_UNITS_PER_CALL;
  }

  /** Why calls are being refused, or null while work is allowed. */
  get exhausted(): string | null {
    return this.reason;
  }

  /** True when the time budget is spent (records the reason). */
  timeSpent(): boolean {
    if (this.reason === null && this.now() > this.deadline) this.reason = 'time budget spent';
    return this.reason !== null;
  }

  /**
   * Asks to run one call of `units`; false (and the reason is kept) when the call would exceed
   * the per-call ceiling or the time budget is spent. An oversized call does not end the budget:
   * only that pattern on that input is refused.
   */
  allow(units: number, what: () => string): boolean {
    if (this.timeSpent()) return false;
    if (units > this.maxUnitsPerCall) {
      this.lastRefusal = `${what()}: input too long for this pattern (${Math.round(units / 1e6)}M work units, limit ${this.maxUnitsPerCall / 1e6}M)`;
      return false;
    }
    return true;
  }
}

/** A budget with only the per-call ceiling, for short inputs such as an e-mail subject. */
const UNBOUNDED_TIME = (): RegexBudget => new RegexBudget();

export type CompileResult = { ok: true; regex: UserRegex } | { ok: false; message: string };

export interface CompileOptions {
  /** Pattern syntax. Default `python` (invoice2data templates). */
  dialect?: RegexDialect;
  /** Flags as letters: `i`, `m`, `s` (JavaScript's `g`, `y`, `d`, `u` are accepted and change nothing). Default none. */
  flags?: string;
}

/** A compiled user pattern. Stateless: safe to share and to run on many inputs. */
export class UserRegex {
  /** Capture groups in the pattern. */
  readonly groupCount: number;
  /** Group index by name. */
  readonly groupNames: Readonly<Record<string, number>>;
  /** Work units per input character. */
  readonly unitsPerChar: number;

  constructor(
    /** The pattern as the user wrote it. */
    readonly pattern: string,
    private readonly re: RE2JS | null,
    /** Set when the pattern is a plain string: matched with indexOf, no engine needed. */
    private readonly literal: string | null,
  ) {
    if (re) {
      const m = re.matcher('');
      this.groupCount = m.groupCount();
      this.groupNames = { ...re.namedGroups() };
      this.unitsPerChar = m.programSize() + CALL_OVERHEAD;
    } else {
      this.groupCount = 0;
      this.groupNames = {};
      this.unitsPerChar = 1;
    }
  }

  private allowed(input: string, from: number, budget: RegexBudget): boolean {
    return budget.allow(
      Math.max(1, input.length - from) * this.unitsPerChar,
      () => `pattern ${JSON.stringify(this.pattern.slice(0, 60))}`,
    );
  }

  /** Whether the pattern matches anywhere in `input`. A refused call counts as no match. */
  test(input: string, budget: RegexBudget = UNBOUNDED_TIME()): boolean {
    if (this.literal !== null) return input.includes(this.literal);
    if (!this.allowed(input, 0, budget)) return false;
    return (this.re as RE2JS).test(input);
  }

  /** The first match at or after `from`, or null (also when the budget refuses the call). */
  exec(input: string, budget: RegexBudget = UNBOUNDED_TIME(), from = 0): UserMatch | null {
    if (this.literal !== null) {
      const at = input.indexOf(this.literal, from);
      return at < 0 ? null : { index: at, end: at + this.literal.length, text: this.literal, groups: [], named: {} };
    }
    if (!this.allowed(input, from, budget)) return null;
    const m = (this.re as RE2JS).matcher(input);
    return m.find(from) ? this.toMatch(m) : null;
  }

  /**
   * Successive non-overlapping matches (Python `finditer`), at most `limit`. Each search is
   * charged against the budget separately (one search may scan to the end of the input).
   */
  *matchAll(input: string, budget: RegexBudget = UNBOUNDED_TIME(), limit = 1000): Generator<UserMatch> {
    if (this.literal !== null) {
      for (
        let at = input.indexOf(this.literal), n = 0;
        at >= 0 && n < limit;
        at = input.indexOf(this.literal, at + Math.max(1, this.literal.length)), n++
      ) {
        yield { index: at, end: at + this.literal.length, text: this.literal, groups: [], named: {} };
      }
      return;
    }
    const m = (this.re as RE2JS).matcher(input);
    let from = 0;
    for (let n = 0; n < limit; n++) {
      if (!this.allowed(input, from, budget)) return;
      if (!m.find()) return;
      const match = this.toMatch(m);
      from = match.end;
      yield match;
    }
  }

  /**
   * Python `re.sub(pattern, repl, input)`: `\1`, `\g<1>`, `\g<name>` and the usual escapes in
   * `repl`; an unmatched group inserts nothing. Stops replacing when the budget refuses.
   */
  replace(input: string, repl: string, budget: RegexBudget = UNBOUNDED_TIME()): string {
    // Most replacements find nothing in a given text: a match-anywhere test (the fast DFA) first.
    if (this.literal === null && !this.test(input, budget)) return input;
    const parts = parseReplacement(repl, this);
    let out = '';
    let last = 0;
    for (const m of this.matchAll(input, budget, Number.MAX_SAFE_INTEGER)) {
      out += input.slice(last, m.index);
      for (const p of parts) out += typeof p === 'string' ? p : p === 0 ? m.text : (m.groups[p - 1] ?? '');
      last = m.end;
      // An empty match is followed by the next character unchanged (Python's behaviour).
      if (m.end === m.index && m.end < input.length) {
        out += input[m.end];
        last = m.end + 1;
      }
    }
    return out + input.slice(last);
  }

  private toMatch(m: ReturnType<RE2JS['matcher']>): UserMatch {
    const groups: Array<string | undefined> = [];
    for (let g = 1; g <= this.groupCount; g++) groups.push(m.group(g) ?? undefined);
    const named: Record<string, string | undefined> = {};
    for (const [name, idx] of Object.entries(this.groupNames)) named[name] = groups[idx - 1];
    return { index: m.start(), end: m.end(), text: m.group() ?? '', groups, named };
  }
}

/**
 * A Python replacement template as literal strings and group numbers (0 for the whole match);
 * a reference to a group the pattern lacks inserts nothing.
 */
export function parseReplacement(repl: string, re: UserRegex): Array<string | number> {
  const parts: Array<string | number> = [];
  let lit = '';
  const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b', '\\': '\\' };
  for (let i = 0; i < repl.length; i++) {
    const c = repl[i];
    if (c !== '\\' || i === repl.length - 1) {
      lit += c;
      continue;
    }
    const n = repl[i + 1];
    const g = /^g<([^>]+)>/.exec(repl.slice(i + 1));
    const d = /^\d{1,2}/.exec(repl.slice(i + 1));
    let ref: number;
    if (g) {
      ref = /^\d+$/.test(g[1]) ? Number(g[1]) : (re.groupNames[g[1]] ?? -1);
      i += g[0].length;
    } else if (d) {
      ref = Number(d[0]);
      i += d[0].length;
    } else {
      lit += ESC[n] ?? `\\${n}`;
      i++;
      continue;
    }
    if (ref < 0 || ref > re.groupCount) {
      lit += '';
      continue;
    }
    parts.push(lit, ref);
    lit = '';
  }
  parts.push(lit);
  return parts.filter((p) => p !== '');
}

// Compiled patterns are memoised: the same template patterns run on every document, and
// compiling costs far more than matching a short text. Bounded so hostile variety cannot grow it.
const CACHE_LIMIT = 5000;
const cache = new Map<string, CompileResult>();

/** Compiles a user pattern for the linear-time engine, or says precisely why it cannot run. */
export function compileUserRegex(pattern: string, opts: CompileOptions = {}): CompileResult {
  if (typeof pattern !== 'string') return { ok: false, message: 'must be a string' };
  const dialect = opts.dialect ?? 'python';
  const key = `${dialect}\u0000${opts.flags ?? ''}\u0000${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const result = compileUncached(pattern, dialect, opts.flags ?? '');
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}

function compileUncached(pattern: string, dialect: RegexDialect, flags: string): CompileResult {
  if (pattern.length === 0) return { ok: false, message: 'must not be empty' };
  if (pattern.length > MAX_PATTERN_LENGTH)
    return { ok: false, message: `longer than ${MAX_PATTERN_LENGTH} characters` };
  const t = translatePattern(pattern, dialect, flags);
  if (!t.ok) return t;
  // A pattern that can only match one fixed string (`\n`, `[.]`, `a\.b`) runs as a substring search.
  const fixed = t.literal ?? (dialect === 'python' && !flags ? fixedString(pattern) : null);
  if (fixed !== null) return { ok: true, regex: new UserRegex(pattern, null, fixed) };
  const bits =
    (t.flags.i ? RE2JS.CASE_INSENSITIVE : 0) |
    (t.flags.m ? RE2JS.MULTILINE : 0) |
    (t.flags.s ? RE2JS.DOTALL : 0) |
    RE2JS.LOOKBEHINDS;
  let re: RE2JS;
  try {
    re = RE2JS.compile(t.source, bits);
  } catch (e) {
    return { ok: false, message: engineMessage(e) };
  }
  const regex = new UserRegex(pattern, re, null);
  if (regex.unitsPerChar > MAX_PROGRAM_SIZE)
    return {
      ok: false,
      message: `too complex (compiles to ${regex.unitsPerChar} instructions, limit ${MAX_PROGRAM_SIZE})`,
    };
  return { ok: true, regex };
}

/** The engine's syntax errors, said in terms of the pattern the user wrote. */
function engineMessage(e: unknown): string {
  if (!(e instanceof RE2JSException)) return `invalid regular expression: ${(e as Error)?.message ?? String(e)}`;
  const m = e.message.replace(/^error parsing regexp: /, '');
  if (m.startsWith('invalid capture in lookbehind'))
    return 'a lookbehind (?<=…)/(?<!…) cannot contain a capturing group; use (?:…) inside it';
  if (m.startsWith('invalid repeat count')) return 'repetition counts above 1000 are not supported';
  if (m.startsWith('invalid nested repetition operator'))
    return `possessive or doubled quantifiers (${m.split('`')[1] ?? ''}) are not supported`;
  if (m.startsWith('missing closing )')) return 'missing ): a ( is never closed';
  if (m.startsWith('unexpected )')) return 'unbalanced parenthesis: a ) without its (';
  return `invalid regular expression: ${m.replace(/`/g, '')}`;
}
