// The Sheets API behind the small SheetsApi interface, using the official client library.
// Only the Sheets part of the library is imported: loading the whole API index costs over a
// second for nothing.
import type { sheets_v4 } from 'googleapis/build/src/apis/sheets/index.js';
import { parseA1Range, quoteSheetName } from '../mapping/a1.js';
import type { SheetCell } from '../mapping/cells.js';
import { checkCredentials, createAuthClient } from './auth.js';
import type { CellInput, SheetsApi, SheetsClientOptions, SheetsCredentials } from './types.js';
import { lazy } from '../../../../lib/lazy.js';

// Loaded on first use: ~17 MB that a process without Sheets connections never needs.
const loadSheets = lazy(() => import('googleapis/build/src/apis/sheets/index.js'));

const toValues = (rows: readonly (readonly CellInput[])[]): SheetCell[][] =>
  // null would mean "leave this cell alone" on update; we always mean "empty".
  rows.map((r) => r.map((c) => (c === null ? '' : c)));

function checkRows(rows: readonly (readonly CellInput[])[]): void {
  if (rows.length === 0) throw new RangeError('no rows to write');
}

/** Row numbers covered by a range the API reported, e.g. `Sheet1!A5:C7` → 5..7. */
function rowSpan(range: string): { firstRow: number; lastRow: number } {
  const r = parseA1Range(range);
  if (r.startRow === null) throw new Error(`API returned a range without rows: ${range}`);
  return { firstRow: r.startRow, lastRow: r.endRow ?? r.startRow };
}

async function createApi(credentials: SheetsCredentials, opts: SheetsClientOptions): Promise<sheets_v4.Sheets> {
  const [{ sheets }, auth] = await Promise.all([loadSheets(), createAuthClient(credentials, opts)]);
  return sheets({
    version: 'v4',
    auth,
    ...(opts.rootUrl ? { rootUrl: opts.rootUrl.endsWith('/') ? opts.rootUrl : `${opts.rootUrl}/` } : {}),
    timeout: opts.timeoutMs ?? 30_000,
    retry: false,
  });
}

/** Throws a TypeError for unusable credentials; the libraries load with the first call. */
export function createSheetsClient(credentials: SheetsCredentials, opts: SheetsClientOptions = {}): SheetsApi {
  checkCredentials(credentials);
  let built: Promise<sheets_v4.Sheets> | undefined;
  const api = () => (built ??= createApi(credentials, opts));

  return {
    async getSheetTitles(spreadsheetId) {
      const client = await api();
      const res = await client.spreadsheets.get({ spreadsheetId, fields: 'sheets.properties.title' });
      return (res.data.sheets ?? []).map((s) => s.properties?.title ?? '').filter((t) => t !== '');
    },

    async getValues(spreadsheetId, range, o = {}) {
      const client = await api();
      const res = await client.spreadsheets.values.get({
        spreadsheetId,
        range,
        majorDimension: 'ROWS',
        valueRenderOption: o.render ?? 'FORMATTED_VALUE',
      });
      return (res.data.values ?? []) as SheetCell[][];
    },

    async appendRows(spreadsheetId, sheet, rows) {
      checkRows(rows);
      const client = await api();
      const res = await client.spreadsheets.values.append({
        spreadsheetId,
        // Anchored at A1 so the API finds the table that starts there and appends below it.
        range: `${quoteSheetName(sheet)}!A1`,
        valueInputOption: 'USER_ENTERED',
        insertDataOption: 'INSERT_ROWS',
        includeValuesInResponse: false,
        requestBody: { majorDimension: 'ROWS', values: toValues(rows) },
      });
      const updatedRange = res.data.updates?.updatedRange;
      if (!updatedRange) throw new Error('append response has no updates.updatedRange');
      return { updatedRange, ...rowSpan(updatedRange) };
    },

    async updateRange(spreadsheetId, range, rows) {
      checkRows(rows);
      const client = await api();
      const res = await client.spreadsheets.values.update({
        spreadsheetId,
        range,
        valueInputOption: 'USER_ENTERED',
        requestBody: { majorDimension: 'ROWS', values: toValues(rows) },
      });
      return { updatedRange: res.data.updatedRange ?? range, updatedRows: res.data.updatedRows ?? 0 };
    },

    async updateRanges(spreadsheetId, data) {
      if (data.length === 0) return { updatedRows: 0 };
      data.forEach((d) => checkRows(d.rows));
      const client = await api();
      const res = await client.spreadsheets.values.batchUpdate({
        spreadsheetId,
        requestBody: {
          valueInputOption: 'USER_ENTERED',
          data: data.map((d) => ({ range: d.range, majorDimension: 'ROWS', values: toValues(d.rows) })),
        },
      });
      return { updatedRows: res.data.totalUpdatedRows ?? 0 };
    },
  };
}
