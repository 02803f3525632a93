// Download formats made from a stored result while it streams: CSV (one section), JSON (the
// whole result with its execution) and XLSX (one worksheet per section, exceljs's streaming
// writer).
import { PassThrough, Readable } from 'node:stream';
// Types only: exceljs (several MB) is loaded on the first XLSX download, not by every process.
import type ExcelJS from 'exceljs';
import type { ColumnSpec } from '../reports.types.js';
import type { ResultItem } from './result-file.js';

export const FORMATS = ['csv', 'json', 'xlsx'] as const;
export type DownloadFormat = (typeof FORMATS)[number];

export const CONTENT_TYPES: Record<DownloadFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Text sent in one piece to the response. */
const CHUNK = 64 * 1024;

const NUMERIC = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A CSV cell. Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is
 * prefixed with an apostrophe, plain negative numbers excepted: exports carry document text
 * that anyone who can upload a file controls.
 */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s: string;
  if (typeof v === 'number') s = Number.isFinite(v) ? String(v) : '';
  else if (typeof v === 'boolean') s = v ? 'true' : 'false';
  else if (typeof v === 'object') s = JSON.stringify(v);
  else {
    s = String(v);
    if (/^[=+\-@\t\r]/.test(s) && !NUMERIC.test(s)) s = `'${s}`;
  }
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV (RFC 4180, CRLF) of one section: a header row of column keys, then the rows. */
export function csvStream(items: AsyncIterable<ResultItem>): Readable {
  return Readable.from(
    (async function* () {
      let buf = '';
      for await (const item of items) {
        if (item.kind === 'section') buf += `${item.section.columns.map((c) => csvCell(c.key)).join(',')}\r\n`;
        else buf += `${item.values.map(csvCell).join(',')}\r\n`;
        if (buf.length >= CHUNK) {
          yield buf;
          buf = '';
        }
      }
      if (buf) yield buf;
    })(),
    { objectMode: false },
  );
}

/**
 * The whole result as one JSON document: `head` (report, execution, summary) and then every
 * section with its columns and rows as objects keyed by column.
 */
export function jsonStream(head: Record<string, unknown>, items: AsyncIterable<ResultItem>): Readable {
  return Readable.from(
    (async function* () {
      const open = JSON.stringify(head);
      let buf = `${open.slice(0, -1)}${open.length > 2 ? ',' : ''}"sections":[`;
      let keys: string[] = [];
      let sections = 0;
      let rows = 0;
      for await (const item of items) {
        if (item.kind === 'section') {
          keys = item.section.columns.map((c) => c.key);
          const { name, title, columns } = item.section;
          buf += `${sections++ > 0 ? ']},' : ''}${JSON.stringify({ name, title, columns }).slice(0, -1)},"rows":[`;
          rows = 0;
        } else {
          const obj: Record<string, unknown> = {};
          for (let i = 0; i < keys.length; i++) obj[keys[i]] = item.values[i] ?? null;
          buf += `${rows++ > 0 ? ',' : ''}${JSON.stringify(obj)}`;
        }
        if (buf.length >= CHUNK) {
          yield buf;
          buf = '';
        }
      }
      yield `${buf}${sections > 0 ? ']}' : ''}]}`;
    })(),
    { objectMode: false },
  );
}

/** Worksheet names: at most 31 characters, none of []:*?/\, unique in the workbook. */
function sheetName(title: string, used: Set<string>): string {
  const base =
    title
      .replace(/[[\]:*?/\\]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 28) || 'Sheet';
  let name = base;
  for (let i = 2; used.has(name.toLowerCase()); i++) name = `${base} ${i}`;
  used.add(name.toLowerCase());
  return name;
}

function xlsxCell(v: unknown, type: ColumnSpec['type']): ExcelJS.CellValue {
  if (v === null || v === undefined) return null;
  if (type === 'datetime' && typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isFinite(t) ? new Date(t) : v;
  }
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  // Strings stay strings: exceljs writes them as text cells, never as formulas.
  return String(v).slice(0, 32_767);
}

/** Rows per worksheet (Excel's limit, header included); longer sections continue on a new sheet. */
const MAX_SHEET_ROWS = 1_048_576;
/** Bytes of finished workbook waiting for the client above which writing rows pauses. */
const XLSX_BACKLOG = 4 * 1024 * 1024;

/** XLSX, one worksheet per section, written while the client reads. */
export function xlsxStream(items: AsyncIterable<ResultItem>, onError: (err: unknown) => void): Readable {
  const out = new PassThrough();
  const used = new Set<string>();
  void (async () => {
    const { default: excel } = await import('exceljs');
    const wb = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    let ws: ExcelJS.Worksheet | null = null;
    let columns: ColumnSpec[] = [];
    let title = '';
    let inSheet = 0;
    let sinceCheck = 0;
    const startSheet = () => {
      ws?.commit();
      ws = wb.addWorksheet(sheetName(title, used));
      ws.addRow(columns.map((c) => c.key)).commit();
      inSheet = 1;
    };
    for await (const item of items) {
      if (item.kind === 'section') {
        columns = item.section.columns;
        title = item.section.title || item.section.name;
        startSheet();
        continue;
      }
      if (inSheet >= MAX_SHEET_ROWS) startSheet();
      const cols = columns;
      (ws as unknown as ExcelJS.Worksheet)
        .addRow(item.values.map((v, i) => xlsxCell(v, cols[i]?.type ?? 'string')))
        .commit();
      inSheet++;
      // exceljs does not apply backpressure: stop producing rows while the client is behind.
      if (++sinceCheck >= 500) {
        sinceCheck = 0;
        while (out.readableLength > XLSX_BACKLOG && !out.destroyed) await new Promise((r) => setTimeout(r, 5));
        if (out.destroyed) return;
        await new Promise((r) => setImmediate(r));
      }
    }
    if (!ws) startSheet();
    (ws as unknown as ExcelJS.Worksheet).commit();
    await wb.commit();
  })().catch((err: unknown) => {
    onError(err);
    out.destroy(err as Error);
  });
  return out;
}
