/**
 * User-supplied regexes (templates): Python `re` syntax translated to JavaScript, plus a cheap
 * static screen for catastrophic backtracking. JavaScript cannot interrupt a running regex, so
 * the engine also caps input length and stops between regexes when its time budget is spent.
 */

/** Longest pattern accepted. */
export const MAX_PATTERN_LENGTH = 2000;

export type RegexCompileResult = { ok: true; regex: RegExp } | { ok: false; message: string };

const PY_FLAGS: Record<string, string> = { i: 'i', m: 'm', s: 's', u: '', a: '', L: '' };

/**
 * Translates the Python-only parts of a pattern: `(?P<name>…)`, `(?P=name)`, leading inline
 * flags `(?i)`, `\A` and `\Z`. Returns the JavaScript source and flags.
 */
export function translatePythonRegex(pattern: string): { source: string; flags: string } | { error: string } {
  let src = pattern;
  let flags = '';
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(src);
  if (inline) {
    for (const f of inline[1]) {
      if (f === 'x') return { error: 'verbose mode (?x) is not supported' };
      const js = PY_FLAGS[f];
      if (js === undefined) return { error: `unknown inline flag (?${f})` };
      if (js && !flags.includes(js)) flags += js;
    }
    src = src.slice(inline[0].length);
  }
  src = src
    .replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>')
    .replace(/(^|[^\\])((?:\\\\)*)\\A/g, '$1$2(?<![\\s\\S])')
    .replace(/(^|[^\\])((?:\\\\)*)\\Z/g, '$1$2(?![\\s\\S])');
  if (/\(\?[a-zA-Z]+\)/.test(src)) return { error: 'inline flags are only supported at the start of a pattern' };
  return { source: src, flags };
}

const MAX_DOT_REPEATS = 6;

interface Frame {
  unbounded: boolean;
}

/**
 * Rejects the classic exponential shapes: a group that contains an unbounded quantifier and
 * is itself repeated (`(a+)+`, `(\w+\s?)*`, `(.*)+`, `(?:x*){2,}`). Returns a message or null.
 */
export function catastrophicReason(source: string): string | null {
  const stack: Frame[] = [{ unbounded: false }];
  let lastGroup: Frame | null = null; // the group that just closed, if the previous atom was one
  let prevQuantifier = false;
  let dotRepeats = 0;
  let lastAtomDot = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    let quant: 'unbounded' | 'bounded' | null = null;
    let quantLen = 1;
    if (c === '*' || c === '+') quant = 'unbounded';
    else if (c === '?') quant = prevQuantifier ? null : 'bounded';
    else if (c === '{') {
      const m = /^\{(\d*)(,?)(\d*)\}/.exec(source.slice(i));
      if (m) {
        quantLen = m[0].length;
        const max = m[3] === '' ? (m[2] === ',' ? Infinity : Number(m[1])) : Number(m[3]);
        quant = max > 50 ? 'unbounded' : 'bounded';
      }
    }
    if (c === '?' && prevQuantifier) {
      prevQuantifier = false; // lazy modifier
      continue;
    }
    if (quant) {
      if (lastGroup && lastGroup.unbounded && quant === 'unbounded') {
        return 'nested unbounded quantifiers (e.g. (a+)+) can backtrack catastrophically';
      }
      if (quant === 'unbounded') {
        stack[stack.length - 1].unbounded = true;
        // Many `.*` in one pattern backtrack polynomially (`.*a.*b.*c.*d…` on a long line).
        if (lastAtomDot && ++dotRepeats > MAX_DOT_REPEATS) {
          return `more than ${MAX_DOT_REPEATS} repeated dots (.* or .+) in one pattern`;
        }
      }
      if (lastGroup?.unbounded) stack[stack.length - 1].unbounded = true;
      i += quantLen - 1;
      prevQuantifier = true;
      lastGroup = null;
      continue;
    }
    prevQuantifier = false;
    lastAtomDot = false;
    if (lastGroup?.unbounded) stack[stack.length - 1].unbounded = true;
    lastGroup = null;
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '.') {
      lastAtomDot = true;
    } else if (c === '(') {
      stack.push({ unbounded: false });
    } else if (c === ')') {
      if (stack.length > 1) lastGroup = stack.pop() ?? null;
    }
  }
  return null;
}

/**
 * Compiles a template pattern (Python syntax) safely. `extraFlags` are added to the flags the
 * pattern sets inline ('g' for scanning all matches).
 */
export function compileTemplateRegex(pattern: string, extraFlags = ''): RegexCompileResult {
  if (typeof pattern !== 'string') return { ok: false, message: 'must be a string' };
  if (pattern.length === 0) return { ok: false, message: 'must not be empty' };
  if (pattern.length > MAX_PATTERN_LENGTH) return { ok: false, message: `longer than ${MAX_PATTERN_LENGTH} characters` };
  const t = translatePythonRegex(pattern);
  if ('error' in t) return { ok: false, message: t.error };
  const reason = catastrophicReason(t.source);
  if (reason) return { ok: false, message: reason };
  const flags = [...new Set((t.flags + extraFlags).split(''))].join('');
  try {
    return { ok: true, regex: new RegExp(t.source, flags) };
  } catch (e) {
    return { ok: false, message: `invalid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}` };
  }
}

/** Number of capture groups in a compiled regex (0 when it has none). */
export function captureCount(re: RegExp): number {
  return (new RegExp(`${re.source}|`, re.flags.replace('g', '')).exec('')?.length ?? 1) - 1;
}
