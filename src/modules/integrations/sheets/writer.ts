// The Google side of one flush: header check, finding rows already in the sheet, and the
// append / update calls. Every call goes through googleCall so failures arrive classified.
import { createHash } from 'node:crypto';
import type { SheetsApi } from './client/types.js';
import { googleCall } from './google-call.js';
import { columnLetter, formatA1Range, rowRange } from './mapping/a1.js';
import { planAppendBatch, rowNumbersFor } from './mapping/batch.js';
import { literalText, type SheetCell } from './mapping/cells.js';
import { buildRow, headerMatches, headerRow, type ColumnMapping } from './mapping/row.js';
import { indexRowsByDocumentId } from './mapping/upsert.js';
import type { ExportRow, SnapshotContext } from './sheets.types.js';
import { ROW_KEY_HEADER } from './validation.js';

/** A row to write: which document version, and what to build it from. */
export interface RowToWrite {
  documentId: string;
  version: number;
  context: SnapshotContext;
  /** An earlier attempt may already have put this row in the sheet. */
  maybeInSheet: boolean;
}

export interface Placed {
  documentId: string;
  version: number;
  row: number;
  range: string;
}

/** Where the writer reports each call's results, so they commit before the next call. */
export type OnPlaced = (placed: Placed[]) => Promise<void>;

type Target = Pick<ExportRow, 'spreadsheet_id' | 'sheet_name' | 'columns' | 'mode' | 'write_header'>;

/** The key written after the mapped columns in append mode: finds our rows after a crash. */
export const rowKey = (documentId: string, version: number) => `${documentId}:v${version}`;

/** The columns as written: append mode adds the row-key column after the mapping. */
export function writtenColumns(t: Target): ColumnMapping[] {
  return t.mode === 'append' ? [...t.columns, { header: ROW_KEY_HEADER, field: '' }] : t.columns;
}

/** Identifies the configuration a verified header belongs to. */
export function headerFingerprint(t: Target): string {
  return createHash('sha256')
    .update(JSON.stringify([t.spreadsheet_id, t.sheet_name, t.mode, t.write_header, t.columns.map((c) => c.header)]))
    .digest('hex')
    .slice(0, 32);
}

function cellsFor(t: Target, r: RowToWrite): SheetCell[] {
  const cells = buildRow(t.columns, r.context);
  if (t.mode === 'append') cells.push(literalText(rowKey(r.documentId, r.version)));
  return cells;
}

const wholeColumn = (sheet: string, col: number) =>
  formatA1Range({ sheet, startCol: col, startRow: null, endCol: col, endRow: null });

export type HeaderResult = { ok: true; created: boolean } | { ok: false; reason: string };

/**
 * Creates the header in an empty sheet; a header that differs from the mapping is reported, never
 * overwritten (someone else's layout, or a mapping edit the sheet was not migrated for).
 */
export async function ensureHeader(api: SheetsApi, t: Target): Promise<HeaderResult> {
  const cols = writtenColumns(t);
  const first = await googleCall('read header', false, () =>
    api.getValues(
      t.spreadsheet_id,
      formatA1Range({ sheet: t.sheet_name, startCol: null, startRow: 1, endCol: null, endRow: 1 }),
    ),
  );
  const check = headerMatches(first[0] ?? [], cols);
  if (check.ok) return { ok: true, created: false };
  if (check.reason === 'empty') {
    await googleCall('write header', true, () =>
      api.updateRange(t.spreadsheet_id, rowRange(t.sheet_name, 1, cols.length), [headerRow(cols)]),
    );
    return { ok: true, created: true };
  }
  // A header someone prepared for the mapping, lacking only our row-key column: add that cell.
  const keyCol = t.columns.length;
  if (t.mode === 'append' && check.mismatches.every((m) => m.column === keyCol && m.actual.trim() === '')) {
    const cell = formatA1Range({ sheet: t.sheet_name, startCol: keyCol, startRow: 1, endCol: keyCol, endRow: 1 });
    await googleCall('write header', true, () =>
      api.updateRange(t.spreadsheet_id, cell, [[literalText(ROW_KEY_HEADER)]]),
    );
    return { ok: true, created: true };
  }
  const diffs = check.mismatches
    .slice(0, 5)
    .map((m) => `column ${columnLetter(m.column)} is "${m.actual}", expected "${m.expected}"`);
  const more = check.mismatches.length > 5 ? ` (and ${check.mismatches.length - 5} more)` : '';
  return {
    ok: false,
    reason: `header row of "${t.sheet_name}" does not match the mapping: ${diffs.join('; ')}${more}`,
  };
}

/** Reads one column and maps its text to sheet row numbers (first occurrence wins). */
async function indexColumn(api: SheetsApi, t: Target, col: number, headerRows: number): Promise<Map<string, number>> {
  const values = await googleCall('read existing rows', false, () =>
    api.getValues(t.spreadsheet_id, wholeColumn(t.sheet_name, col)),
  );
  return indexRowsByDocumentId(values, 0, { headerRows });
}

async function appendAll(
  api: SheetsApi,
  t: Target,
  rows: readonly RowToWrite[],
  maxRows: number,
  onPlaced: OnPlaced,
): Promise<number> {
  const width = writtenColumns(t).length;
  const byKey = new Map(rows.map((r) => [rowKey(r.documentId, r.version), r]));
  const chunks = planAppendBatch(
    rows.map((r) => ({ key: rowKey(r.documentId, r.version), cells: cellsFor(t, r) })),
    { maxRows },
  );
  for (const chunk of chunks) {
    const res = await googleCall('append rows', true, () => api.appendRows(t.spreadsheet_id, t.sheet_name, chunk.rows));
    const numbers = rowNumbersFor(chunk, res);
    await onPlaced(
      chunk.keys.map((k) => {
        const r = byKey.get(k) as RowToWrite;
        const row = numbers.get(k) as number;
        return { documentId: r.documentId, version: r.version, row, range: rowRange(t.sheet_name, row, width) };
      }),
    );
  }
  return chunks.length;
}

/**
 * Append mode. Rows an earlier attempt may have written are looked up by their row key first
 * (one read), so a retry after a crash between Google's answer and our commit adds nothing.
 * Returns the number of append calls made.
 */
export async function writeAppend(
  api: SheetsApi,
  t: Target,
  rows: readonly RowToWrite[],
  maxRows: number,
  onPlaced: OnPlaced,
): Promise<number> {
  let todo = rows;
  if (rows.some((r) => r.maybeInSheet)) {
    const index = await indexColumn(api, t, t.columns.length, 0);
    const found: Placed[] = [];
    todo = rows.filter((r) => {
      const row = r.maybeInSheet ? index.get(rowKey(r.documentId, r.version)) : undefined;
      if (row !== undefined)
        found.push({
          documentId: r.documentId,
          version: r.version,
          row,
          range: rowRange(t.sheet_name, row, t.columns.length + 1),
        });
      return row === undefined;
    });
    if (found.length) await onPlaced(found);
  }
  return todo.length ? appendAll(api, t, todo, maxRows, onPlaced) : 0;
}

/**
 * Upsert mode: rows are found by document id (one read of the id column) and rewritten in
 * place in one batch update; documents without a row are appended. `rows` must hold one
 * version per document (the caller drops superseded ones).
 */
export async function writeUpsert(
  api: SheetsApi,
  t: Target,
  rows: readonly RowToWrite[],
  maxRows: number,
  onPlaced: OnPlaced,
): Promise<number> {
  const idCol = t.columns.findIndex((c) => c.field === 'document.id');
  if (idCol < 0) throw new Error('upsert export without a document.id column');
  const index = await indexColumn(api, t, idCol, t.write_header ? 1 : 0);
  const width = t.columns.length;
  const updates: { r: RowToWrite; row: number }[] = [];
  const appends: RowToWrite[] = [];
  for (const r of rows) {
    const row = index.get(r.documentId);
    if (row === undefined) appends.push(r);
    else updates.push({ r, row });
  }
  let calls = 0;
  for (let i = 0; i < updates.length; i += maxRows) {
    const part = updates.slice(i, i + maxRows);
    await googleCall('update rows', true, () =>
      api.updateRanges(
        t.spreadsheet_id,
        part.map((u) => ({ range: rowRange(t.sheet_name, u.row, width), rows: [cellsFor(t, u.r)] })),
      ),
    );
    calls++;
    await onPlaced(
      part.map((u) => ({
        documentId: u.r.documentId,
        version: u.r.version,
        row: u.row,
        range: rowRange(t.sheet_name, u.row, width),
      })),
    );
  }
  if (appends.length) calls += await appendAll(api, t, appends, maxRows, onPlaced);
  return calls;
}
