import { csvToText } from './csv.js';
import { docxToText } from './docx.js';
import { emlToText } from './eml.js';
import { ParseError } from './errors.js';
import { htmlBytesToText } from './html.js';
import { MIME } from './sniff.js';
import { normalizeText, plainTextToText } from './text.js';

/** Bounds for {@link convertToText}. */
export interface ConvertLimits {
  /** Bytes a DOCX's parts may inflate to. Default: {@link DEFAULT_MAX_INFLATED_BYTES}. */
  maxInflatedBytes?: number;
}

/** Types {@link convertToText} handles: every parsed type except PDF and images. */
export const CONVERTIBLE: ReadonlySet<string> = new Set([
  MIME.docx,
  MIME.eml,
  MIME.html,
  MIME.csv,
  MIME.json,
  MIME.txt,
]);

/**
 * Pretty-printing indents each level by two spaces, so the text grows with the square of the
 * nesting: 64 KB of nested arrays became 256 MB. Deeper documents are kept as written.
 */
const MAX_PRETTY_DEPTH = 20;

/** Whether brackets outside strings nest deeper than `max` (one linear pass). */
function nestsDeeperThan(raw: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

function parseJson(bytes: Buffer): string {
  const raw = plainTextToText(bytes);
  if (nestsDeeperThan(raw, MAX_PRETTY_DEPTH)) return raw;
  try {
    return normalizeText(JSON.stringify(JSON.parse(raw), null, 2));
  } catch {
    return raw;
  }
}

/**
 * Text of a document of a type in {@link CONVERTIBLE}. Runs wherever it is called: the parse
 * stage calls it inside the memory-limited parser process (see `createPdfEngine`), since each
 * of these can take many times the file's size in memory.
 */
export async function convertToText(mime: string, bytes: Buffer, limits: ConvertLimits = {}): Promise<string> {
  // Checked where the text is made (the parser process), so text past the bound never crosses
  // to the worker.
  return checkTextLength(await convertUnchecked(mime, bytes, limits));
}

async function convertUnchecked(mime: string, bytes: Buffer, limits: ConvertLimits): Promise<string> {
  if (mime === MIME.docx) return docxToText(bytes, { maxInflatedBytes: limits.maxInflatedBytes });
  if (mime === MIME.eml) return emlToText(bytes);
  if (mime === MIME.html) return htmlBytesToText(bytes);
  if (mime === MIME.csv) return csvToText(bytes);
  if (mime === MIME.json) return parseJson(bytes);
  if (mime === MIME.txt) return plainTextToText(bytes);
  throw new ParseError('UNSUPPORTED_TYPE', `files of type ${mime} are not supported`);
}

/**
 * Characters of text one document may have: about 3,000 pages of dense print. Past it the
 * document fails as TOO_LARGE instead of being cut, since a cut would silently lose fields.
 * Without a bound a 24 MB text file became 25 million characters that every later stage copies
 * (one whitespace pass in the worker took 400 MB for it).
 */
export const MAX_TEXT_CHARS = 10_000_000;

export function checkTextLength(text: string): string {
  if (text.length > MAX_TEXT_CHARS) {
    throw new ParseError(
      'TOO_LARGE',
      `the document's text is ${text.length.toLocaleString('en-US')} characters; the limit is ${MAX_TEXT_CHARS.toLocaleString('en-US')}`,
    );
  }
  return text;
}
