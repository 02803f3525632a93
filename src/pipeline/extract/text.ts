/** Small text helpers shared by the extractors. */

/** Removes combining marks after NFD decomposition: "Fällig" -> "Fallig", "échéance" -> "echeance". */
export function stripAccents(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '');
}

/** Splits text into lines, normalising CRLF/CR and non-breaking spaces (PDF text uses them a lot). */
export function splitLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u00a0\u2007\u202f]/g, ' ')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''));
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
  return s.replace(/^\s*(?:(?:[:#=\-–.]|n[°ºo]\.?(?=[\s\d:#]|$)|nr\.?(?=[\s\d:#]|$))\s*)*/iu, '').trim();
}

export function hasLetter(s: string): boolean {
  return /\p{L}/u.test(s);
}

export function hasDigit(s: string): boolean {
  return /\d/.test(s);
}
