/**
 * Windows-1252 meanings of the bytes 0x80–0x9F (Latin-1 has control codes there). Node's
 * TextDecoder treats 'windows-1252' as plain Latin-1, so the mapping is applied by hand.
 */
export const CP1252_C1: Record<number, number> = {
  0x80: 0x20ac,
  0x82: 0x201a,
  0x83: 0x192,
  0x84: 0x201e,
  0x85: 0x2026,
  0x86: 0x2020,
  0x87: 0x2021,
  0x88: 0x2c6,
  0x89: 0x2030,
  0x8a: 0x160,
  0x8b: 0x2039,
  0x8c: 0x152,
  0x8e: 0x17d,
  0x91: 0x2018,
  0x92: 0x2019,
  0x93: 0x201c,
  0x94: 0x201d,
  0x95: 0x2022,
  0x96: 0x2013,
  0x97: 0x2014,
  0x98: 0x2dc,
  0x99: 0x2122,
  0x9a: 0x161,
  0x9b: 0x203a,
  0x9c: 0x153,
  0x9e: 0x17e,
  0x9f: 0x178,
};

function decodeWindows1252(buf: Buffer): string {
  return buf
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => String.fromCodePoint(CP1252_C1[c.charCodeAt(0)] ?? c.charCodeAt(0)));
}

/** How the bytes of a text file were read. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Sniffing looks at this much; enough for any realistic text heuristic. */
export const TEXT_SAMPLE_BYTES = 64 * 1024;

export function bomEncoding(buf: Buffer): TextEncoding | null {
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return 'utf-8';
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return 'utf-16le';
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return 'utf-16be';
  return null;
}

/** Cuts a (possibly truncated) sample so it does not end inside a UTF-8 sequence. */
function utf8Boundary(buf: Buffer): Buffer {
  let end = buf.length;
  let back = 0;
  while (end - back - 1 >= 0 && back < 3 && (buf[end - back - 1] & 0xc0) === 0x80) back++;
  const lead = end - back - 1;
  if (lead < 0) return buf;
  const b = buf[lead];
  const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  if (need > back + 1) end = lead;
  return buf.subarray(0, end);
}

export function isValidUtf8(buf: Buffer, truncated = false): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(truncated ? utf8Boundary(buf) : buf);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the bytes read as human text: no NULs and almost no C0 control characters.
 * UTF-16 files are recognised by their BOM only (without one they are indistinguishable
 * from binary at this level of effort).
 */
export function looksLikeText(sample: Buffer): boolean {
  if (sample.length === 0) return false;
  const bom = bomEncoding(sample);
  if (bom === 'utf-16le' || bom === 'utf-16be') return sample.length % 2 === 0 || sample.length >= TEXT_SAMPLE_BYTES;
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i];
    if (b === 0) return false;
    // Tab, LF, VT, FF, CR and ESC (ANSI colour in logs) are normal; 0x1A is the DOS end-of-file mark.
    if ((b < 0x20 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13 && b !== 27 && b !== 0x1a) || b === 0x7f) {
      controls++;
    }
  }
  return controls <= sample.length * 0.01;
}

/**
 * Decodes text: BOM first, then strict UTF-8, then Windows-1252 (the superset of Latin-1 that
 * legacy Western files actually use). Strips the BOM.
 */
export function decodeText(buf: Buffer, preferred?: string): { text: string; encoding: TextEncoding | string } {
  const bom = bomEncoding(buf);
  if (bom === 'utf-16le' || bom === 'utf-16be') {
    return { text: new TextDecoder(bom).decode(buf.subarray(2)), encoding: bom };
  }
  const body = bom === 'utf-8' ? buf.subarray(3) : buf;
  if (bom === 'utf-8' || isValidUtf8(body)) return { text: body.toString('utf8'), encoding: 'utf-8' };
  if (preferred && !/^(utf-?8|iso-8859-1|latin-?1|windows-1252|cp1252|us-ascii|ascii)$/i.test(preferred)) {
    try {
      return { text: new TextDecoder(preferred).decode(body), encoding: preferred.toLowerCase() };
    } catch {
      // Unknown label: fall through to the Western default.
    }
  }
  return { text: decodeWindows1252(body), encoding: 'windows-1252' };
}

/**
 * Final clean-up shared by every format: newline style, control characters, trailing spaces,
 * runs of blank lines. Keeps tabs (table cells) and form feeds (page breaks).
 */
export function normalizeText(text: string): string {
  return trimLineEnds(
    text
      // At most 32 combining marks on one character (real scripts use a few): NFC reorders a run
      // of marks of mixed classes in quadratic time (0.66 s for 32,000).
      .replace(/(\p{M}{32})\p{M}+/gu, '$1')
      .normalize('NFC')
      .replace(/\r\n?/g, '\n')
      .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f\u200b\ufeff]/g, '')
      .replace(/\u00a0/g, ' '),
  )
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Drops the spaces and tabs that end each line (before `\n`, U+2028, U+2029 or the end). Not
 * `/[ \t]+$/gm`: a backtracking engine tries that from every position of a run of blanks that is
 * followed by other text, so a line of n spaces and one letter costs n²/2 steps (64 KiB of them
 * blocked the event loop for 7.8 s).
 */
function trimLineEnds(text: string): string {
  let out = '';
  let copied = 0;
  let blanksFrom = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) {
      if (blanksFrom < 0) blanksFrom = i;
      continue;
    }
    if (blanksFrom >= 0 && (c === 10 || c === 0x2028 || c === 0x2029)) {
      out += text.slice(copied, blanksFrom);
      copied = i;
    }
    blanksFrom = -1;
  }
  if (blanksFrom >= 0) return out + text.slice(copied, blanksFrom);
  return out + text.slice(copied);
}

/** Plain-text documents. */
export function plainTextToText(buf: Buffer): string {
  return normalizeText(decodeText(buf).text);
}
