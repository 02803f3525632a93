/**
 * Case-insensitive filename glob: `*` matches any run of characters (including none), `?`
 * exactly one character; everything else is literal (no character classes, no escapes).
 *
 * Hand-written two-pointer matcher instead of a RegExp built from user input: patterns come
 * from mailbox settings, and this keeps matching linear-ish with no regex injection or
 * catastrophic backtracking on patterns such as `*a*a*a*a*b`.
 */
export function globMatch(name: string, pattern: string): boolean {
  // Compare by code point so `?` consumes one visible character, not half a surrogate pair.
  const s = Array.from(name.toLowerCase());
  const p = Array.from(pattern.toLowerCase());
  let si = 0;
  let pi = 0;
  let starPi = -1;
  let starSi = 0;
  while (si < s.length) {
    if (pi < p.length && (p[pi] === '?' || (p[pi] !== '*' && p[pi] === s[si]))) {
      si++;
      pi++;
    } else if (pi < p.length && p[pi] === '*') {
      starPi = pi++;
      starSi = si;
    } else if (starPi !== -1) {
      // Let the last `*` swallow one more character and retry from there.
      pi = starPi + 1;
      si = ++starSi;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}

/**
 * Normalises a pattern setting: an array of globs, or one string with comma/newline separated
 * globs (the form a settings text field produces). Blank entries are dropped.
 */
export function parsePatternList(value: string | readonly string[] | null | undefined): string[] {
  if (value == null) return [];
  const items = typeof value === 'string' ? value.split(/[,\n]/) : value.flatMap((v) => v.split(/[,\n]/));
  return items.map((v) => v.trim()).filter((v) => v.length > 0);
}

/** True when `name` matches at least one of the patterns. */
export function matchesAnyGlob(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => globMatch(name, p));
}
