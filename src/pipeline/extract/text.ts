/** Small text helpers shared by the extractors. */

/** Removes combining marks after NFD decomposition: "Fällig" -> "Fallig", "échéance" -> "echeance". */
export function stripAccents(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '');
}

/** Splits text into lines, normalising CRLF/CR and non-breaking spaces (PDF text uses them a lot). */
export function splitLines(text: string): string[] {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u00a0\u2007\u202f]/g, ' ')
    .split('\n');
  const out: string[] = [];
  for (const l of lines) {
    if (l.length <= MAX_LINE) out.push(l.trimEnd());
    else out.push(...wrapLong(l));
  }
  return out;
}

/** Longest line the extractors look at; longer ones are paragraphs or whole pages without breaks. */
export const MAX_LINE = 400;

// A page extracted without line breaks still has wide gaps between blocks: cut there first,
// then at the last space before the limit.
function wrapLong(line: string): string[] {
  const out: string[] = [];
  for (const part of line.split(/\s{3,}/)) {
    let rest = part.trim();
    while (rest.length > MAX_LINE) {
      const cut = rest.lastIndexOf(' ', MAX_LINE);
      const at = cut > MAX_LINE / 2 ? cut : MAX_LINE;
      out.push(rest.slice(0, at).trimEnd());
      rest = rest.slice(at).trimStart();
    }
    if (rest !== '') out.push(rest);
  }
  return out;
}

/**
 * Splits a table row into cells. Tabs and runs of two or more spaces separate cells; single
 * spaces stay inside a cell ("Widget A" is one description).
 */
export function splitCells(line: string): string[] {
  return line
    .split(/\t+| {2,}/)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

/** Index of the next non-empty line after `i` within `maxAhead` lines, or -1. */
export function nextNonEmpty(lines: readonly string[], i: number, maxAhead = 2): number {
  for (let j = i + 1; j < lines.length && j <= i + maxAhead; j++) {
    if (lines[j].trim() !== '') return j;
  }
  return -1;
}

/** Strips separators that commonly follow a label: ":", "#", "-", "=", "n°", "no.", "nr.". */
export function stripLeadingSeparators(s: string): string {
  // A hash written onto digits is part of the number ("#10432"), not a separator.
  return s.replace(/^\s*(?:(?:[:=\-–.]|#(?!\d)|n[°ºo]\.?(?=[\s\d:#]|$)|nr\.?(?=[\s\d:#]|$))\s*)*/iu, '').trim();
}

export function hasLetter(s: string): boolean {
  return /\p{L}/u.test(s);
}

export function hasDigit(s: string): boolean {
  return /\d/.test(s);
}

/**
 * Every match of a global regex. `String#matchAll` clones the regex on each call, which costs
 * more than the match itself for the big month-name patterns; this reuses the (module-level,
 * never shared across awaits) regex and leaves `lastIndex` reset.
 */
export function allMatches(re: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    out.push(m);
    if (m[0] === '') re.lastIndex++;
  }
  re.lastIndex = 0;
  return out;
}
