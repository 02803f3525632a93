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

/** Move a window's start to the next line start within `slack` characters, so lines stay whole. */
function snapStart(text: string, at: number, slack: number): number {
  if (at <= 0) return 0;
  const nl = text.indexOf('\n', at - 1);
  return nl >= 0 && nl - at < slack ? nl + 1 : at;
}

/** Move a window's end back to the previous line end within `slack` characters. */
function snapEnd(text: string, at: number, slack: number): number {
  if (at >= text.length) return text.length;
  const nl = text.lastIndexOf('\n', at);
  return nl >= 0 && at - nl < slack ? nl : at;
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
    const start = snapStart(text, Math.round(w * stride), 120);
    const end = snapEnd(text, Math.min(text.length, start + size), 120);
    parts.push(text.slice(start, Math.max(start, end)));
  }
  return parts.join('\n\n');
}
