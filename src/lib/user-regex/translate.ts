/**
 * Translation of user-written patterns (Python `re` syntax for templates, JavaScript syntax for
 * `/regex/` settings) into RE2 syntax, which runs in linear time. What RE2 cannot run
 * (lookaheads, backreferences, atomic groups, possessive quantifiers, conditionals) is refused
 * here with a reason the author can act on, instead of an engine error.
 *
 * Semantics kept: Python's Unicode-aware `\d`, `\w`, `\s` and their complements (RE2's are
 * ASCII-only), global inline flags wherever they are written, verbose mode, `\Z`, `\uXXXX`,
 * octal escapes, `{,n}`, comments `(?#…)`. Known remaining differences: `\b`/`\B` use ASCII
 * word characters, `\S`/`\W` inside a negated set `[^…]` are ASCII, and `$` without multi-line
 * mode matches only at the very end (Python also matches before a final newline).
 */

export type RegexDialect = 'python' | 'javascript';

export interface RegexFlags {
  /** Case-insensitive. */
  i: boolean;
  /** `^`/`$` at line boundaries. */
  m: boolean;
  /** `.` also matches a newline. */
  s: boolean;
}

export type Translation =
  { ok: true; source: string; flags: RegexFlags; literal: string | null } | { ok: false; message: string };

class Refusal extends Error {
  override readonly name = 'Refusal';
}

const refuse = (message: string): never => {
  throw new Refusal(message);
};

// Python's `str.isspace()` set, which its `\s` matches: ASCII whitespace, the information
// separators \x1c-\x1f, NEL, and the Unicode space separators (RE2's \p{Z}).
const PY_SPACE_BODY = '\\t\\n\\x{0b}\\f\\r\\x{1c}-\\x{1f}\\x{85}\\p{Z}';
const PY_WORD_BODY = '\\p{L}\\p{N}_';
// JavaScript's `\s`: ASCII whitespace, the Unicode space separators and the BOM.
const JS_SPACE_BODY = '\\t\\n\\x{0b}\\f\\r\\p{Z}\\x{feff}';

const META = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);

/** `\x{…}` for one code point. */
const hexEscape = (cp: number): string => `\\x{${cp.toString(16)}}`;

/** A literal character written so RE2 reads it as itself (inside or outside a class). */
function literal(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x20 || cp === 0x7f) return hexEscape(cp);
  if (/[A-Za-z0-9]/.test(ch) || cp > 0x7f) return ch;
  return `\\${ch}`;
}

const isOctal = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '7';
const isHex = (s: string): boolean => /^[0-9a-fA-F]+$/.test(s);

interface State {
  dialect: RegexDialect;
  /** Python `(?a)`: keep RE2's ASCII classes. */
  ascii: boolean;
}

/**
 * Removes Python's global inline flags (`(?i)`, `(?mx)` … anywhere at the top level; Python
 * applies them to the whole pattern) and returns them with the rest of the pattern.
 */
function takeGlobalFlags(p: string): { rest: string; flags: Set<string> } {
  const flags = new Set<string>();
  let out = '';
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      out += p.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // A `]` right after `[` or `[^` is a literal member in Python.
      if (p[i + 1] === '^') out += p[++i];
      if (p[i + 1] === ']') out += p[++i];
      continue;
    }
    const m = c === '(' ? /^\(\?([a-zA-Z]+)\)/.exec(p.slice(i)) : null;
    if (m) {
      for (const f of m[1]) flags.add(f);
      i += m[0].length - 1;
      continue;
    }
    out += c;
  }
  return { rest: out, flags };
}

/**
 * A Python pattern's body without its global inline flags (and, in verbose mode, without its
 * whitespace and comments), with those flags: what a literal scan of the pattern reads.
 */
export function pythonBody(pattern: string): { body: string; flags: Set<string> } {
  const g = takeGlobalFlags(pattern);
  return { body: g.flags.has('x') ? stripVerbose(g.rest) : g.rest, flags: g.flags };
}

/** Python verbose mode: unescaped whitespace and `#` comments outside classes are not part of the pattern. */
function stripVerbose(p: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      out += p.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      if (p[i + 1] === '^') out += p[++i];
      if (p[i + 1] === ']') out += p[++i];
    } else if (c === '#') {
      while (i < p.length && p[i] !== '\n') i++;
    } else if (!/\s/.test(c)) out += c;
  }
  return out;
}

/** Reads an escape at `p[i] === '\\'`; returns the RE2 text and the index of its last character. */
function escape(p: string, i: number, st: State, inClass: boolean): [string, number] {
  const c = p[i + 1];
  if (c === undefined) refuse('the pattern ends with a lone backslash');
  const py = st.dialect === 'python';
  // Octal escapes and backreferences.
  if (c >= '0' && c <= '9') {
    if (inClass || c === '0' || (py && isOctal(c) && isOctal(p[i + 2]) && isOctal(p[i + 3]))) {
      if (!py && c !== '0' && !inClass)
        refuse(`backreference \\${c} is not supported: the linear-time regex engine cannot match repeated text`);
      let j = i + 1;
      let digits = '';
      while (j < p.length && digits.length < 3 && isOctal(p[j])) digits += p[j++];
      if (digits === '') refuse(`\\${c} is not a valid escape inside a character class`);
      const cp = Number.parseInt(digits, 8);
      if (cp > 0o377) refuse(`octal escape \\${digits} is out of range`);
      return [hexEscape(cp), j - 1];
    }
    const ref = /^\d{1,2}/.exec(p.slice(i + 1))?.[0] ?? c;
    return refuse(`backreference \\${ref} is not supported: the linear-time regex engine cannot match repeated text`);
  }
  switch (c) {
    case 'd':
      if (st.ascii || !py) return ['\\d', i + 1];
      return ['\\p{Nd}', i + 1];
    case 'D':
      // (\P{Nd} is also valid inside a set.)
      if (st.ascii || !py) return ['\\D', i + 1];
      return ['\\P{Nd}', i + 1];
    case 'w':
      if (st.ascii || !py) return ['\\w', i + 1];
      return [inClass ? PY_WORD_BODY : `[${PY_WORD_BODY}]`, i + 1];
    case 'W':
      // Inside a class a negated Unicode set cannot be written as a union: RE2's ASCII \W.
      if (st.ascii || !py || inClass) return ['\\W', i + 1];
      return [`[^${PY_WORD_BODY}]`, i + 1];
    case 's': {
      // Python's ASCII \s also matches the vertical tab, RE2's does not.
      if (st.ascii) return [inClass ? '\\s\\x{0b}' : '[\\s\\x{0b}]', i + 1];
      const body = py ? PY_SPACE_BODY : JS_SPACE_BODY;
      return [inClass ? body : `[${body}]`, i + 1];
    }
    case 'S': {
      if (st.ascii || inClass) return ['\\S', i + 1];
      return [`[^${py ? PY_SPACE_BODY : JS_SPACE_BODY}]`, i + 1];
    }
    case 'b':
      return [inClass ? hexEscape(8) : '\\b', i + 1];
    case 'B':
      if (inClass) refuse('\\B is not valid inside a character class');
      return ['\\B', i + 1];
    case 'A':
      if (!py) return ['A', i + 1];
      if (inClass) refuse('\\A is not valid inside a character class');
      return ['\\A', i + 1];
    case 'Z':
      if (!py) return ['Z', i + 1];
      if (inClass) refuse('\\Z is not valid inside a character class');
      return ['\\z', i + 1];
    case 'z':
      if (py) refuse('\\z is not a Python escape; use \\Z for the end of the text');
      return ['z', i + 1];
    case 'a':
      return [py ? hexEscape(7) : 'a', i + 1];
    case 'f':
    case 'n':
    case 'r':
    case 't':
    case 'v':
      return [`\\${c}`, i + 1];
    case 'x': {
      const h = p.slice(i + 2, i + 4);
      if (h.length === 2 && isHex(h)) return [hexEscape(Number.parseInt(h, 16)), i + 3];
      if (py) refuse('\\x needs two hex digits, e.g. \\x41');
      return ['x', i + 1];
    }
    case 'u': {
      if (!py && p[i + 2] === '{') {
        const end = p.indexOf('}', i + 3);
        const h = end > 0 ? p.slice(i + 3, end) : '';
        if (isHex(h) && Number.parseInt(h, 16) <= 0x10ffff) return [hexEscape(Number.parseInt(h, 16)), end];
        refuse('\\u{…} needs a hex code point');
      }
      const h = p.slice(i + 2, i + 6);
      if (h.length === 4 && isHex(h)) return [hexEscape(Number.parseInt(h, 16)), i + 5];
      if (py) refuse('\\u needs four hex digits, e.g. \\u00e9');
      return ['u', i + 1];
    }
    case 'U': {
      if (!py) return ['U', i + 1];
      const h = p.slice(i + 2, i + 10);
      if (h.length === 8 && isHex(h) && Number.parseInt(h, 16) <= 0x10ffff)
        return [hexEscape(Number.parseInt(h, 16)), i + 9];
      return refuse('\\U needs eight hex digits, e.g. \\U0001F600');
    }
    case 'N':
      return refuse('named Unicode escapes \\N{…} are not supported; write the character or \\uXXXX');
    case 'k':
      if (!py && p[i + 2] === '<')
        refuse('backreference \\k<…> is not supported: the linear-time regex engine cannot match repeated text');
      return py ? refuse('bad escape \\k') : ['k', i + 1];
    case 'c':
      if (!py && /[A-Za-z]/.test(p[i + 2] ?? '')) return [hexEscape(p.charCodeAt(i + 2) % 32), i + 2];
      return py ? refuse('bad escape \\c') : ['c', i + 1];
    case 'p':
    case 'P': {
      // Unicode property classes: RE2 knows general categories and scripts (\p{L}, \p{Greek}).
      const m = /^\{\^?[A-Za-z_]+\}|^[A-Za-z]/.exec(p.slice(i + 2));
      if (!m) refuse(`\\${c} needs a Unicode property such as \\${c}{L}`);
      return [`\\${c}${m?.[0] ?? ''}`, i + 1 + (m?.[0].length ?? 0)];
    }
    default:
      if (/[A-Za-z]/.test(c)) {
        return py ? refuse(`bad escape \\${c}`) : [c, i + 1];
      }
      // An escaped punctuation mark, space or other character stands for itself.
      {
        const ch = String.fromCodePoint(p.codePointAt(i + 1) ?? 0);
        return [literal(ch), i + ch.length];
      }
  }
}

/** The flags of a scoped group `(?i:…)`/`(?-i:…)`: only i, m, s exist in RE2. */
function scopedFlags(spec: string): string {
  for (const f of spec.replace('-', '')) {
    if (f === 'x') refuse('verbose mode is only supported for the whole pattern, as (?x) at its start');
    if (f === 'a' || f === 'u' || f === 'L') refuse(`flag ${f} is only supported for the whole pattern`);
    if (!'ims'.includes(f)) refuse(`unknown flag ${f} in (?${spec}:…)`);
  }
  return spec;
}

/** Translates a group opener at `p[i] === '('`; returns RE2 text and the index of its last character. */
function group(p: string, i: number, st: State): [string, number] {
  if (p[i + 1] !== '?') return ['(', i];
  const rest = p.slice(i + 2);
  const named = /^P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
  if (named) return [`(?P<${named[1]}>`, i + 1 + named[0].length];
  if (rest.startsWith(':')) return ['(?:', i + 2];
  if (rest.startsWith('=') || rest.startsWith('!')) {
    return refuse(
      `lookahead (?${rest[0]}…) is not supported by the linear-time regex engine; match the text itself (a lookbehind (?<=…) or (?<!…) is supported)`,
    );
  }
  if (rest.startsWith('<=') || rest.startsWith('<!')) return [`(?${rest.slice(0, 2)}`, i + 3];
  if (rest.startsWith('P='))
    return refuse('backreference (?P=name) is not supported: the linear-time regex engine cannot match repeated text');
  if (rest.startsWith('P>') || rest.startsWith('&') || /^[R0-9+-]\d*\)/.test(rest))
    return refuse('recursive patterns are not supported');
  if (rest.startsWith('>'))
    return refuse('atomic groups (?>…) are not supported; a plain group (?:…) never backtracks catastrophically here');
  if (rest.startsWith('(')) return refuse('conditional groups (?(…)…) are not supported');
  if (rest.startsWith('#')) {
    if (st.dialect !== 'python') refuse('comments (?#…) are not JavaScript syntax');
    const end = p.indexOf(')', i);
    if (end < 0) refuse('unterminated comment (?#…');
    return ['', end];
  }
  const scoped = /^([a-zA-Z]*(?:-[a-zA-Z]+)?):/.exec(rest);
  if (scoped) {
    if (st.dialect !== 'python')
      refuse(`inline flags (?${scoped[1]}:…) are not JavaScript syntax; use the flags after the closing /`);
    return [`(?${scopedFlags(scoped[1])}:`, i + 1 + scoped[0].length];
  }
  if (/^[a-zA-Z-]+\)/.test(rest)) {
    return refuse(
      st.dialect === 'python'
        ? 'inline flags cannot be turned off mid-pattern'
        : 'inline flags are not JavaScript syntax; use the flags after the closing /',
    );
  }
  return refuse(`unknown group syntax (?${rest.slice(0, 2)}`);
}

/** Translates the body of a character class starting after `[`; returns RE2 text and the index of `]`. */
function charClass(p: string, i: number, st: State): [string, number] {
  let out = '[';
  let j = i + 1;
  const negated = p[j] === '^';
  if (negated) {
    out += '^';
    j++;
  }
  if (p[j] === ']') {
    if (st.dialect === 'javascript') {
      // JavaScript: `[]` matches nothing and `[^]` matches any character.
      return [negated ? '(?s:.)' : '[^\\x{0}-\\x{10ffff}]', j];
    }
    out += '\\]';
    j++;
  }
  // Unicode \S and \W inside a set are complements, which RE2 cannot put inside brackets:
  // `[\S ]` becomes `(?:[ ]|[^…spaces…])`. In a negated set they keep RE2's ASCII meaning.
  const complements: string[] = [];
  const unicode = !st.ascii;
  for (; j < p.length; j++) {
    const c = p[j];
    if (c === ']') {
      const set = out === '[' || out === '[^' ? '' : `${out}]`;
      if (complements.length === 0) return [set || '[^\\x{0}-\\x{10ffff}]', j];
      return [`(?:${[set, ...complements].filter((x) => x !== '').join('|')})`, j];
    }
    if (c === '\\') {
      const n = p[j + 1];
      if (!negated && unicode && (n === 'S' || (n === 'W' && st.dialect === 'python'))) {
        complements.push(
          n === 'W' ? `[^${PY_WORD_BODY}]` : `[^${st.dialect === 'python' ? PY_SPACE_BODY : JS_SPACE_BODY}]`,
        );
        j++;
        continue;
      }
      const [t, end] = escape(p, j, st, true);
      out += t;
      j = end;
    } else if (c === '[') {
      // A literal `[`: RE2 would otherwise read `[:alpha:]` as a POSIX class.
      out += '\\[';
    } else {
      const ch = String.fromCodePoint(p.codePointAt(j) ?? 0);
      out += ch === '-' || ch === '^' ? ch : literal(ch);
      j += ch.length - 1;
    }
  }
  return refuse('unterminated character class [');
}

function translateBody(p: string, st: State): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    switch (c) {
      case '\\': {
        const [t, end] = escape(p, i, st, false);
        out += t;
        i = end;
        break;
      }
      case '[': {
        const [t, end] = charClass(p, i, st);
        out += t;
        i = end;
        break;
      }
      case '(': {
        const [t, end] = group(p, i, st);
        if (t !== '') depth++;
        out += t;
        i = end;
        break;
      }
      case ')':
        if (depth === 0) refuse('unbalanced parenthesis: a ) without its (');
        depth--;
        out += ')';
        break;
      case '{': {
        const q = /^\{(\d*),?(\d*)\}/.exec(p.slice(i));
        if (q && st.dialect === 'python' && q[0].startsWith('{,')) {
          out += `{0,${q[2]}}`;
          i += q[0].length - 1;
        } else if (q && (q[1] !== '' || q[0] === '{}')) {
          out += q[0] === '{}' ? '\\{\\}' : q[0];
          i += q[0].length - 1;
        } else out += '\\{';
        break;
      }
      case '}':
        out += '\\}';
        break;
      default: {
        const ch = String.fromCodePoint(p.codePointAt(i) ?? 0);
        out += META.has(ch) ? ch : literal(ch);
        i += ch.length - 1;
      }
    }
  }
  if (depth > 0) refuse('missing ): a ( is never closed');
  return out;
}

const JS_FLAGS = new Set(['i', 'm', 's', 'u', 'g', 'y', 'd']);

/**
 * Translates a pattern. `flags` are JavaScript-style letters given outside the pattern
 * (`i`, `m`, `s`; for JavaScript also `u`, and `g`/`y`/`d` which change nothing here).
 */
export function translatePattern(pattern: string, dialect: RegexDialect, flags = ''): Translation {
  try {
    const f: RegexFlags = { i: false, m: false, s: false };
    const st: State = { dialect, ascii: false };
    for (const c of flags) {
      if (c === 'i' || c === 'm' || c === 's') f[c] = true;
      else if (c === 'v') refuse('the v flag is not supported');
      else if (!JS_FLAGS.has(c)) refuse(`unknown flag ${c}`);
    }
    let body = pattern;
    if (dialect === 'python') {
      const g = takeGlobalFlags(pattern);
      body = g.rest;
      for (const c of g.flags) {
        if (c === 'i' || c === 'm' || c === 's') f[c] = true;
        else if (c === 'a') st.ascii = true;
        else if (c === 'L') refuse('locale-dependent matching (?L) is not supported');
        else if (c !== 'u' && c !== 'x') refuse(`unknown inline flag (?${c})`);
      }
      if (g.flags.has('x')) body = stripVerbose(body);
    }
    const plain = !f.i && body.length > 0 && [...body].every((ch) => !META.has(ch));
    return { ok: true, source: translateBody(body, st), flags: f, literal: plain ? body : null };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, message: e.message };
    throw e;
  }
}
