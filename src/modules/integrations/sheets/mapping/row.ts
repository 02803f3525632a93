import { literalText, typedCell, type SheetCell } from './cells.js';
import { resolveField, type MappingContext } from './resolve.js';

/** One sheet column: its header text and the field path that fills it. */
export interface ColumnMapping {
  header: string;
  field: string;
}

/** The cells of one document's row, in column order. */
export function buildRow(columns: readonly ColumnMapping[], ctx: MappingContext): SheetCell[] {
  return columns.map((c) => typedCell(resolveField(c.field, ctx)));
}

/** The header row to write into an empty sheet (headers are literal text too). */
export function headerRow(columns: readonly ColumnMapping[]): SheetCell[] {
  return columns.map((c) => literalText(c.header));
}

export interface HeaderMismatch {
  /** 0-based column index. */
  column: number;
  expected: string;
  actual: string;
}

export type HeaderCheck =
  | { ok: true }
  | {
      ok: false;
      /** `empty`: the sheet has no header yet (write one); `mismatch`: someone else's layout. */
      reason: 'empty' | 'mismatch';
      expected: string[];
      actual: string[];
      mismatches: HeaderMismatch[];
    };

const norm = (v: unknown): string =>
  (v === null || v === undefined ? '' : String(v)).trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Compares the sheet's first row with the mapping. Case and surrounding whitespace are ignored
 * (people retype headers); extra columns to the right of ours are allowed, because appending
 * only writes our columns and users keep notes beside the export.
 */
export function headerMatches(
  existing: readonly unknown[] | null | undefined,
  columns: readonly ColumnMapping[],
): HeaderCheck {
  const expected = columns.map((c) => c.header);
  const actual = (existing ?? []).map((v) => (v === null || v === undefined ? '' : String(v)));
  if (actual.every((a) => a.trim() === '')) {
    return { ok: false, reason: 'empty', expected, actual, mismatches: [] };
  }
  const mismatches: HeaderMismatch[] = [];
  expected.forEach((want, column) => {
    const got = actual[column] ?? '';
    if (norm(want) !== norm(got)) mismatches.push({ column, expected: want, actual: got });
  });
  return mismatches.length === 0 ? { ok: true } : { ok: false, reason: 'mismatch', expected, actual, mismatches };
}
