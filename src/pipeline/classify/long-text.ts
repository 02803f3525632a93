/**
 * What the classifier reads of a long document. A contract's signature block, a paper's
 * reference list and a CV's education section sit at the end, so reading only the first pages
 * throws away evidence. Texts up to the budget are read whole; longer ones are read as evenly
 * spaced windows that together fill the budget and always include the beginning and the end.
 * Training and prediction use the same function, so both see the same kind of text.
 */

/**
 * Characters read per document: about eight pages of dense text are read whole; a longer text
 * is read as eight windows of 3,000 characters (a page or so each) from start to end.
 */
export const DEFAULT_MAX_CHARS = 24000;

/** Windows a longer text is read in. */
const WINDOWS = 8;

/** Snap a cut to the next line break within `slack` characters, so words and lines stay whole. */
function snap(text: string, at: number, slack: number): number {
  if (at <= 0) return 0;
  if (at >= text.length) return text.length;
  const nl = text.indexOf('\n', at);
  return nl >= 0 && nl - at <= slack ? nl + 1 : at;
}

/**
 * The part of `text` the classifier reads: the text itself when it fits `maxChars`, otherwise
 * {@link WINDOWS} windows of `maxChars / WINDOWS` characters spread evenly from start to end,
 * joined by blank lines.
 */
export function classificationText(text: string, maxChars = DEFAULT_MAX_CHARS): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 0) return '';
  const size = Math.floor(maxChars / WINDOWS);
  if (size < 200) return text.slice(0, maxChars);
  const stride = (text.length - size) / (WINDOWS - 1);
  const parts: string[] = [];
  for (let w = 0; w < WINDOWS; w++) {
    const start = snap(text, Math.round(w * stride), 120);
    const end = Math.min(text.length, start + size);
    parts.push(text.slice(start, end));
  }
  return parts.join('\n\n');
}
