// A1 notation helpers. Columns are 0-based indexes here (A = 0) because every other array in
// the export code is 0-based; rows stay 1-based because that is what a sheet shows and what the
// API's ranges carry.

/** Sheets' hard limit is column ZZZ (18,278 columns). */
export const MAX_COLUMNS = 18_278;

/** A parsed A1 range. `null` bounds are open (a whole column, a whole row, or the whole sheet). */
export interface A1Range {
  /** Sheet title without quotes; `null` when the range names no sheet (the API uses the first). */
  sheet: string | null;
  startCol: number | null;
  startRow: number | null;
  endCol: number | null;
  endRow: number | null;
}

/** 0 → "A", 25 → "Z", 26 → "AA". */
export function columnLetter(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_COLUMNS) {
    throw new RangeError(`column index out of range: ${index}`);
  }
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** "A" → 0, "AA" → 26 (case-insensitive). */
export function columnIndex(letters: string): number {
  if (!/^[A-Za-z]{1,3}$/.test(letters)) throw new RangeError(`not a column: ${letters}`);
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  if (n > MAX_COLUMNS) throw new RangeError(`column beyond ZZZ: ${letters}`);
  return n - 1;
}

// Names that could be read as a cell (A1, XFD12) or R1C1 reference must be quoted, as must
// anything outside plain word characters.
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LOOKS_LIKE_REF = /^(?:[A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*)$/;

/** Quotes a sheet title for use in a range when needed (`My Sheet` → `'My Sheet'`). */
export function quoteSheetName(name: string): string {
  if (PLAIN_NAME.test(name) && !LOOKS_LIKE_REF.test(name)) return name;
  return `'${name.replace(/'/g, "''")}'`;
}

interface CellRef {
  col: number | null;
  row: number | null;
}

const REF = /^([A-Za-z]{1,3})?(\d+)?$/;

function parseRef(text: string): CellRef | null {
  const m = REF.exec(text);
  if (!m || (!m[1] && !m[2])) return null;
  const row = m[2] === undefined ? null : Number(m[2]);
  if (row !== null && row < 1) return null;
  return { col: m[1] ? columnIndex(m[1]) : null, row };
}

function parseCells(text: string): Omit<A1Range, 'sheet'> | null {
  const parts = text.split(':');
  if (parts.length > 2) return null;
  const a = parseRef(parts[0]);
  if (!a) return null;
  if (parts.length === 1) {
    // A lone "A" or "3" is not a valid reference; a lone cell is a 1×1 range.
    if (a.col === null || a.row === null) return null;
    return { startCol: a.col, startRow: a.row, endCol: a.col, endRow: a.row };
  }
  const b = parseRef(parts[1]);
  if (!b) return null;
  // A row-only start ("1:") cannot end on a column ("1:C3").
  if (a.col === null && b.col !== null) return null;
  return { startCol: a.col, startRow: a.row, endCol: b.col, endRow: b.row };
}

/**
 * Parses `Sheet1!A1:Z`, `'My Sheet'!A:C`, `Sheet1`, `A1:B2`, `'It''s'!B3`.
 * Throws RangeError on anything else.
 */
export function parseA1Range(range: string): A1Range {
  const text = range.trim();
  let sheet: string | null = null;
  let cells = text;
  if (text.startsWith("'")) {
    // Quoted title: '' inside is an escaped quote.
    let i = 1;
    let name = '';
    for (;;) {
      const q = text.indexOf("'", i);
      if (q === -1) throw new RangeError(`unterminated sheet name in range: ${range}`);
      name += text.slice(i, q);
      if (text[q + 1] === "'") {
        name += "'";
        i = q + 2;
        continue;
      }
      i = q + 1;
      break;
    }
    sheet = name;
    if (i === text.length) cells = '';
    else if (text[i] === '!' && i + 1 < text.length) cells = text.slice(i + 1);
    else throw new RangeError(`bad range: ${range}`);
  } else {
    const bang = text.lastIndexOf('!');
    if (bang !== -1) {
      sheet = text.slice(0, bang);
      cells = text.slice(bang + 1);
      if (cells === '') throw new RangeError(`bad range: ${range}`);
    } else if (parseCells(text) === null) {
      // No "!" and not a cell reference: the whole text is a sheet title.
      sheet = text;
      cells = '';
    }
  }
  if (sheet !== null && sheet.length === 0) throw new RangeError(`empty sheet name in range: ${range}`);
  if (cells === '') return { sheet, startCol: null, startRow: null, endCol: null, endRow: null };
  const parsed = parseCells(cells);
  if (!parsed) throw new RangeError(`bad range: ${range}`);
  return { sheet, ...parsed };
}

/** Formats a range back to A1 text; open bounds are left out (`A:C`, `A2:Z`). */
export function formatA1Range(r: A1Range): string {
  const ref = (col: number | null, row: number | null) =>
    `${col === null ? '' : columnLetter(col)}${row === null ? '' : row}`;
  const start = ref(r.startCol, r.startRow);
  const end = ref(r.endCol, r.endRow);
  let cells = '';
  if (start || end) {
    cells = start === end && r.startCol !== null && r.startRow !== null ? start : `${start}:${end}`;
  }
  if (r.sheet === null) return cells;
  return cells ? `${quoteSheetName(r.sheet)}!${cells}` : quoteSheetName(r.sheet);
}

/** The range covering one row's first `columnCount` cells, e.g. `'Sheet'!A7:F7`. */
export function rowRange(sheet: string, row: number, columnCount: number): string {
  if (!Number.isInteger(row) || row < 1) throw new RangeError(`bad row number: ${row}`);
  if (!Number.isInteger(columnCount) || columnCount < 1) throw new RangeError(`bad column count: ${columnCount}`);
  return formatA1Range({ sheet, startCol: 0, startRow: row, endCol: columnCount - 1, endRow: row });
}
