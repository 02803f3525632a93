/**
 * What a Python pattern's matches must contain, read from the pattern without running it, so
 * that many patterns can be ruled out against a text with `includes` before any regex runs.
 * Every answer errs on the safe side: a literal is reported only when every match contains it,
 * and a character set is reported as at least every character a match can contain. Anything
 * the scan does not understand counts as unknown (no literal, any character).
 */
import { translatePattern, pythonBody } from './translate.js';

/** One unknown stretch between literal runs. */
const GAP = null;
type Tok = string | typeof GAP;

/**
 * Case folding for literal search under RE2's `(?i)`: lower case, plus the long s, which RE2
 * folds to `s` and `toLowerCase` leaves alone (the Kelvin sign already lowers to `k`). For an
 * ASCII letter, every character RE2 matches case-insensitively folds to that letter's lower case.
 */
export function foldCase(s: string): string {
  const lower = s.toLowerCase();
  return lower.includes('ſ') ? lower.replace(/ſ/g, 's') : lower;
}

/** A character with case outside ASCII: RE2's case-insensitive orbit may not agree with {@link foldCase}. */
const casedNonAscii = (c: string): boolean => c > '\x7f' && (c.toLowerCase() !== c || c.toUpperCase() !== c);

export interface RequiredLiterals {
  /** Strings every match contains (already case-folded when `caseless`). */
  parts: string[];
  /** Compare against {@link foldCase}d text. */
  caseless: boolean;
}

/**
 * The pattern's body as the scans read it: global flags taken out, verbose whitespace and
 * comments `(?#…)` dropped (a quantifier after a comment applies to what precedes it).
 */
function scanBody(pattern: string): { body: string; flags: Set<string> } {
  const { body, flags } = pythonBody(pattern);
  if (!body.includes('(?#')) return { body, flags };
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      out += body.slice(i, i + 2);
      i++;
    } else if (c === '[') {
      const end = classEnd(body, i);
      out += body.slice(i, end + 1);
      i = end;
    } else if (body.startsWith('(?#', i)) {
      const end = body.indexOf(')', i);
      i = end < 0 ? body.length : end;
    } else out += c;
  }
  return { body: out, flags };
}

/** A quantifier at `p[i]`: its minimum and where it ends, or null. Python's `{}` and stray braces are literals. */
function quantifier(p: string, i: number): { min: number; end: number } | null {
  const c = p[i];
  let min: number;
  let end: number;
  if (c === '?' || c === '*') [min, end] = [0, i];
  else if (c === '+') [min, end] = [1, i];
  else if (c === '{') {
    const q = /^\{(\d*),?(\d*)\}/.exec(p.slice(i));
    if (!q || (q[1] === '' && !q[0].startsWith('{,'))) return null;
    [min, end] = [q[1] === '' ? 0 : Number(q[1]), i + q[0].length - 1];
  } else return null;
  // A lazy or possessive mark belongs to the quantifier.
  if (p[end + 1] === '?' || p[end + 1] === '+') end++;
  return { min, end };
}

/** Index of the `]` closing a class opened at `p[i] === '['` (Python: a `]` first is a member). */
function classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  while (j < p.length && p[j] !== ']') j += p[j] === '\\' ? 2 : 1;
  return j;
}

/** Length of the escape at `p[i] === '\\'` minus one (the index step to its last character). */
function escapeLength(p: string, i: number): number {
  const c = p[i + 1] ?? '';
  if (c === 'x') return 3;
  if (c === 'u') return 5;
  if (c === 'U') return 9;
  if (c === 'p' || c === 'P') {
    const m = /^\{\^?[A-Za-z_]+\}|^[A-Za-z]/.exec(p.slice(i + 2));
    return 1 + (m?.[0].length ?? 0);
  }
  if (c >= '0' && c <= '7') {
    let n = 1;
    while (n < 3 && p[i + 1 + n] >= '0' && p[i + 1 + n] <= '7') n++;
    return n;
  }
  return String.fromCodePoint(p.codePointAt(i + 1) ?? 0).length;
}

const CONTROL: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07' };

/**
 * The one character an escape at `p[i] === '\\'` stands for, or null for a class, an assertion
 * or anything else: escaped punctuation (Python: anything but an ASCII letter or digit), the
 * control escapes, and `\xhh`, `\uhhhh`, `\Uhhhhhhhh`.
 */
function escapedLiteral(p: string, i: number): string | null {
  const c = p[i + 1];
  if (c === undefined) return null;
  if (!/[A-Za-z0-9]/.test(c)) return String.fromCodePoint(p.codePointAt(i + 1) ?? 0);
  if (CONTROL[c] !== undefined) return CONTROL[c];
  const hex =
    c === 'x' ? p.slice(i + 2, i + 4) : c === 'u' ? p.slice(i + 2, i + 6) : c === 'U' ? p.slice(i + 2, i + 10) : null;
  if (hex === null || hex.length !== { x: 2, u: 4, U: 8 }[c] || !/^[0-9a-fA-F]+$/.test(hex)) return null;
  const cp = Number.parseInt(hex, 16);
  return cp <= 0x10ffff ? String.fromCodePoint(cp) : null;
}

/** Scans a sequence up to `)` (in a group) or the end; `alt` when it holds a top-level `|`. */
function sequence(p: string, start: number, inGroup: boolean): { toks: Tok[]; end: number; alt: boolean } {
  const toks: Tok[] = [];
  let alt = false;
  let i = start;
  for (; i < p.length; i++) {
    const c = p[i];
    if (c === ')' && inGroup) break;
    if (c === '|') {
      alt = true;
      continue;
    }
    let atom: Tok[];
    if (c === '\\') {
      const lit = escapedLiteral(p, i);
      // Zero-width assertions consume nothing: literals on both sides stay adjacent in a match.
      atom = lit !== null ? [lit] : 'AZbB'.includes(p[i + 1] ?? '') ? [] : [GAP];
      i += escapeLength(p, i);
    } else if (c === '[') {
      const end = classEnd(p, i);
      const body = p.slice(i + 1, end);
      // A class of one member is that character (`[.]`, `[\\-]`); anything else is unknown.
      let single: string | null = null;
      if (body.startsWith('\\')) {
        const lit = escapedLiteral(body, 0);
        if (lit !== null && body.length === 1 + escapeLength(body, 0)) single = lit;
      } else if (!body.startsWith('^') && [...body].length === 1) single = body;
      atom = single !== null ? [single] : [GAP];
      i = end;
    } else if (c === '(') {
      const rest = p.slice(i + 1);
      let header = 0;
      let kind: 'seq' | 'zero' | 'opaque' = 'seq';
      if (rest.startsWith('?')) {
        const named = /^\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
        if (named) header = named[0].length;
        else if (rest.startsWith('?:')) header = 2;
        else if (/^\?(<=|<!)/.test(rest)) [header, kind] = [3, 'zero'];
        else if (/^\?[=!#]/.test(rest)) [header, kind] = [2, 'zero'];
        else [header, kind] = [1, 'opaque'];
      }
      const inner = sequence(p, i + 1 + header, true);
      atom = kind === 'zero' ? [] : kind === 'opaque' || inner.alt ? [GAP] : inner.toks;
      i = inner.end;
    } else if (c === '^' || c === '$') {
      atom = [];
    } else if (c === '.' || c === '*' || c === '+' || c === '?') {
      atom = [GAP];
    } else {
      const ch = String.fromCodePoint(p.codePointAt(i) ?? 0);
      atom = [ch];
      i += ch.length - 1;
    }
    const q = quantifier(p, i + 1);
    if (q) {
      atom = q.min >= 1 ? [...atom, GAP] : [GAP];
      i = q.end;
    }
    toks.push(...atom);
  }
  return { toks, end: i, alt };
}

/**
 * Strings that every match of the Python pattern contains, longest first; null when the
 * pattern does not translate (it never matches then) or the scan finds none.
 */
export function requiredLiterals(pattern: string): RequiredLiterals | null {
  if (typeof pattern !== 'string' || !translatePattern(pattern, 'python').ok) return null;
  const { body, flags } = scanBody(pattern);
  const caseless = flags.has('i');
  const scan = sequence(body, 0, false);
  if (scan.alt) return null;
  const parts: string[] = [];
  let cur = '';
  const flush = (): void => {
    if (cur !== '') parts.push(cur);
    cur = '';
  };
  for (const t of scan.toks) {
    if (t === GAP) flush();
    else if (caseless) {
      // Cased letters outside ASCII may fold differently in RE2: they end a run.
      for (const ch of t) {
        if (casedNonAscii(ch)) flush();
        else cur += foldCase(ch);
      }
    } else cur += t;
  }
  flush();
  if (parts.length === 0) return null;
  return { parts: [...new Set(parts)].sort((a, b) => b.length - a.length), caseless };
}

/** At least the characters a match of a pattern can contain. */
export interface CharUniverse {
  any: boolean;
  /** Decimal digits (Python's Unicode `\d`). */
  digits: boolean;
  /** White space (Python's Unicode `\s`). */
  spaces: boolean;
  /** Other characters, case-folded. */
  chars: Set<string>;
}

const SPACE = /[\s\x1c-\x1f\x85\p{Z}]/u;
const DIGIT = /\p{Nd}/u;

/** Whether `ch` may be in the universe (compared case-folded, which only adds). */
export function universeHas(u: CharUniverse, ch: string): boolean {
  if (u.any) return true;
  if (u.digits && DIGIT.test(ch)) return true;
  if (u.spaces && SPACE.test(ch)) return true;
  for (const f of foldCase(ch)) if (u.chars.has(f)) return true;
  return false;
}

/** The characters a match of the Python pattern can contain (over-approximated). */
export function matchUniverse(pattern: string): CharUniverse {
  const any: CharUniverse = { any: true, digits: true, spaces: true, chars: new Set() };
  if (typeof pattern !== 'string' || !translatePattern(pattern, 'python').ok) return any;
  const { body: p, flags } = scanBody(pattern);
  const u: CharUniverse = { any: false, digits: false, spaces: false, chars: new Set() };
  let caseless = flags.has('i');
  const add = (ch: string): void => {
    if (casedNonAscii(ch)) {
      // Its case-insensitive orbit is RE2's to say; add the case variants JavaScript knows.
      for (const v of [ch, ch.toLowerCase(), ch.toUpperCase()]) for (const f of foldCase(v)) u.chars.add(f);
    } else for (const f of foldCase(ch)) u.chars.add(f);
  };
  // Escapes that stand for a category, inside or outside a class.
  const category = (e: string): boolean => {
    if (e === 'd') u.digits = true;
    else if (e === 's') u.spaces = true;
    else return false;
    return true;
  };
  for (let i = 0; i < p.length && !u.any; i++) {
    const c = p[i];
    if (c === '\\') {
      const lit = escapedLiteral(p, i);
      if (lit !== null) add(lit);
      else if (!category(p[i + 1]) && !'AZbB'.includes(p[i + 1] ?? '')) u.any = true;
      i += escapeLength(p, i);
    } else if (c === '[') {
      const end = classEnd(p, i);
      let j = i + 1;
      if (p[j] === '^') u.any = true;
      const members: string[] = [];
      for (; j < end && !u.any; j++) {
        if (p[j] === '\\') {
          const lit = escapedLiteral(p, j);
          if (lit !== null) members.push(lit);
          else if (!category(p[j + 1])) u.any = true;
          j += escapeLength(p, j);
        } else {
          const ch = String.fromCodePoint(p.codePointAt(j) ?? 0);
          members.push(ch);
          j += ch.length - 1;
        }
      }
      // Ranges: a `-` between two members (not first or last) spans them.
      for (let k = 0; k < members.length && !u.any; k++) {
        // (An escaped `-` is taken for a range too: that only adds characters.)
        if (members[k] === '-' && k > 0 && k < members.length - 1) {
          const lo = members[k - 1].codePointAt(0) ?? 0;
          const hi = members[k + 1].codePointAt(0) ?? 0;
          if (hi - lo > 512) u.any = true;
          else for (let cp = lo; cp <= hi; cp++) add(String.fromCodePoint(cp));
        }
        add(members[k]);
      }
      i = end;
    } else if (c === '(') {
      const rest = p.slice(i + 1);
      if (!rest.startsWith('?')) continue;
      const named = /^\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
      const scoped = /^\?([a-zA-Z]*)(?:-[a-zA-Z]+)?:/.exec(rest);
      if (named) i += named[0].length;
      else if (/^\?(<=|<!)/.test(rest)) i += 3;
      else if (/^\?[=!:]/.test(rest)) i += 2;
      else if (rest.startsWith('?#')) i = p.indexOf(')', i);
      else if (scoped) {
        if (scoped[1].includes('i')) caseless = true;
        i += scoped[0].length;
      } else u.any = true;
    } else if (c === '.') {
      u.any = true;
    } else if (c === '{' && quantifier(p, i)) {
      i = (quantifier(p, i) as { end: number }).end;
    } else if (!')|^$*+?'.includes(c)) {
      const ch = String.fromCodePoint(p.codePointAt(i) ?? 0);
      add(ch);
      i += ch.length - 1;
    }
  }
  if (u.any) return any;
  if (caseless) {
    // Case-insensitive: every folded member's upper case too (and RE2's orbit of a cased
    // non-ASCII character is beyond this scan).
    for (const ch of [...u.chars]) if (casedNonAscii(ch)) return any;
  }
  return u;
}

/**
 * The string a Python pattern matches and nothing else (no classes, groups, quantifiers,
 * anchors or case folding), or null: such a pattern can run as a plain substring search.
 */
export function fixedString(pattern: string): string | null {
  if (typeof pattern !== 'string' || !translatePattern(pattern, 'python').ok) return null;
  const { body: p, flags } = scanBody(pattern);
  if (flags.has('i')) return null;
  let out = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      const lit = escapedLiteral(p, i);
      if (lit === null) return null;
      out += lit;
      i += escapeLength(p, i);
    } else if (c === '[') {
      const end = classEnd(p, i);
      const body = p.slice(i + 1, end);
      const lit = body.startsWith('\\')
        ? escapedLiteral(body, 0)
        : !body.startsWith('^') && [...body].length === 1
          ? body
          : null;
      if (lit === null || (body.startsWith('\\') && body.length !== 1 + escapeLength(body, 0))) return null;
      out += lit;
      i = end;
    } else if ('.^$|?*+()'.includes(c) || (c === '{' && quantifier(p, i))) {
      return null;
    } else out += c;
  }
  return out === '' ? null : out;
}

/** One item of a pattern's top-level sequence. */
export interface TopItem {
  /** Capture group number when the item is a capturing group. */
  group: number | null;
  /** Followed by a quantifier (may repeat, or be absent). */
  quantified: boolean;
  /** Matches no text (an anchor, `\b`, a lookaround). */
  zeroWidth: boolean;
}

/** Kind of the group opened at `p[i] === '('` and the length of its opener. */
function groupOpener(p: string, i: number): { kind: 'capture' | 'plain' | 'zero' | 'comment'; len: number } {
  const rest = p.slice(i + 1);
  if (!rest.startsWith('?')) return { kind: 'capture', len: 1 };
  const named = /^\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
  if (named) return { kind: 'capture', len: 1 + named[0].length };
  if (/^\?(<=|<!)/.test(rest)) return { kind: 'zero', len: 4 };
  if (/^\?[=!]/.test(rest)) return { kind: 'zero', len: 3 };
  if (rest.startsWith('?#')) return { kind: 'comment', len: 3 };
  const scoped = /^\?[a-zA-Z]*(?:-[a-zA-Z]+)?:/.exec(rest);
  return { kind: 'plain', len: 1 + (scoped?.[0].length ?? 1) };
}

/**
 * The top-level sequence of a Python pattern, with capture group numbers, or null when the
 * pattern has a top-level alternation (or does not translate).
 */
export function topLevelItems(pattern: string): TopItem[] | null {
  if (typeof pattern !== 'string' || !translatePattern(pattern, 'python').ok) return null;
  const { body: p } = scanBody(pattern);
  const items: TopItem[] = [];
  let groups = 0;
  let depth = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    let item: TopItem | null = null;
    if (c === '\\') {
      if (depth === 0)
        item = {
          group: null,
          quantified: false,
          zeroWidth: escapedLiteral(p, i) === null && 'AZbB'.includes(p[i + 1] ?? ''),
        };
      i += escapeLength(p, i);
    } else if (c === '[') {
      if (depth === 0) item = { group: null, quantified: false, zeroWidth: false };
      i = classEnd(p, i);
    } else if (c === '(') {
      const g = groupOpener(p, i);
      if (g.kind === 'comment') {
        i = p.indexOf(')', i);
        continue;
      }
      if (g.kind === 'capture') groups++;
      if (depth === 0)
        item = { group: g.kind === 'capture' ? groups : null, quantified: false, zeroWidth: g.kind === 'zero' };
      depth++;
      i += g.len - 1;
      if (depth > 1 || item === null) continue;
      // The group's own quantifier is read when its `)` closes it.
      items.push(item);
      continue;
    } else if (c === ')') {
      depth--;
      if (depth === 0) {
        const q = quantifier(p, i + 1);
        if (q) {
          items[items.length - 1].quantified = true;
          i = q.end;
        }
      }
      continue;
    } else if (c === '|') {
      if (depth === 0) return null;
    } else if (depth === 0) {
      item = { group: null, quantified: false, zeroWidth: c === '^' || c === '$' };
      i += String.fromCodePoint(p.codePointAt(i) ?? 0).length - 1;
    }
    if (item === null) continue;
    const q = quantifier(p, i + 1);
    if (q) {
      item.quantified = true;
      i = q.end;
    }
    items.push(item);
  }
  return items;
}
