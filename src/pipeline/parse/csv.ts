import { decodeText, normalizeText } from './text.js';

const DELIMITERS = [',', ';', '\t', '|'] as const;
export type CsvDelimiter = (typeof DELIMITERS)[number];

/**
 * RFC 4180-style rows: quoted fields may hold delimiters, doubled quotes and newlines.
 * Stops after `maxRows` rows (sniffing only needs a few).
 */
export function parseCsvRows(text: string, delimiter: string, maxRows = Infinity): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  // Whether `field.trim() === ''`, kept as the field grows: trimming the field at every quote
  // made a field of n blanks followed by n quotes cost n² (8.5 s for 64 KiB).
  let blank = true;
  const add = (ch: string): void => {
    field += ch;
    if (blank && !/\s/.test(ch)) blank = false;
  };
  let inQuotes = false;
  let i = 0;
  while (i < text.length && rows.length < maxRows) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          add('"');
          i += 2;
          continue;
        }
        inQuotes = false;
      } else {
        add(ch);
      }
      i++;
      continue;
    }
    if (ch === '"' && blank) {
      field = '';
      inQuotes = true;
    } else if (ch === delimiter) {
      row.push(field);
      field = '';
      blank = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      blank = true;
    } else {
      add(ch);
    }
    i++;
  }
  if (rows.length < maxRows && (field !== '' || row.length > 0)) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * Picks the delimiter that splits the first lines into the same number (≥ 2) of fields on
 * every line. Returns null when no delimiter is consistent over at least `minLines` lines.
 * `truncated` says the sample may end mid-line, so its last line is ignored.
 */
export function detectDelimiter(
  text: string,
  opts: { minLines?: number; truncated?: boolean } = {},
): CsvDelimiter | null {
  const minLines = opts.minLines ?? 2;
  let best: { d: CsvDelimiter; fields: number } | null = null;
  for (const d of DELIMITERS) {
    let rows = parseCsvRows(text, d, 21).filter((r) => !(r.length === 1 && r[0].trim() === ''));
    if (opts.truncated && rows.length > 1) rows = rows.slice(0, -1);
    if (rows.length < minLines) continue;
    const fields = rows[0].length;
    if (fields < 2 || !rows.every((r) => r.length === fields)) continue;
    if (!best || fields > best.fields) best = { d, fields };
  }
  return best?.d ?? null;
}

/** CSV/TSV documents: one line per row, cells separated by tabs, in-cell newlines flattened. */
export function csvToText(buf: Buffer): string {
  const { text } = decodeText(buf);
  const delimiter = detectDelimiter(text, { minLines: 1 }) ?? mostFrequentDelimiter(text);
  const lines = parseCsvRows(text, delimiter).map((cells) =>
    cells.map((c) => oneLine(c).replace(/\t/g, ' ').trim()).join('\t'),
  );
  return normalizeText(lines.join('\n'));
}

/**
 * A cell's line breaks, with the blanks around them, as single spaces. Not
 * `/\s*[\r\n]+\s*\/g`: a backtracking engine tries that from every position of a run of blanks
 * with no line break after it (n²/2 steps: 3.3 s for one cell of 64 KiB of spaces).
 */
function oneLine(cell: string): string {
  if (!/[\r\n]/.test(cell)) return cell;
  return cell
    .split(/[\r\n]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' ');
}

/** Ragged files (rows of different widths): fall back to what the first line uses most. */
function mostFrequentDelimiter(text: string): CsvDelimiter {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  let best: CsvDelimiter = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = firstLine.split(d).length - 1;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}
