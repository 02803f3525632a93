// Upload → pipeline → after-extraction export, against the fake Google server: mapped columns in
// order with typed values, status per export target, reprocess → new row in append mode and the
// same row rewritten in upsert mode, manual export, and rows surviving document deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { createSheetsTestApp, eventually, serviceAccountKey, type SheetsStack } from '../../helpers/sheets-harness.js';

const INVOICE = [
  'ACME Supplies GmbH',
  'Invoice',
  'Invoice No: INV-2024-0042',
  'Invoice date: 05.03.2024',
  'Due date: 04.04.2024',
  'Bill to: Example Customer Ltd',
  'Description Qty Unit price Amount',
  'Paper A4 10 4.50 45.00',
  'Toner 2 60.00 120.00',
  'Subtotal: 165.00 EUR',
  'VAT 19%: 31.35 EUR',
  'Total: 196.35 EUR',
  'IBAN: DE89 3704 0044 0532 0130 00',
].join('\n');

const APPEND_COLUMNS = [
  { header: 'Document', field: 'document.id' },
  { header: 'File', field: 'document.filename' },
  { header: 'Type', field: 'classification.type' },
  { header: 'Confidence', field: 'classification.confidence' },
  { header: 'Invoice no', field: 'fields.invoice_number' },
  { header: 'Total', field: 'fields.total' },
  { header: 'Uploaded', field: 'document.created_at' },
  { header: 'PO', field: 'fields.purchase_order_number_that_is_missing' },
];
const UPSERT_COLUMNS = [
  { header: 'Total', field: 'fields.total' },
  { header: 'Doc', field: 'document.id' },
  { header: 'Version', field: 'document.version' },
];

describe('sheets export end to end (pipeline)', () => {
  let t: SheetsStack;
  let owner: Actor;
  let projectId: string;
  let appendId: string;
  let upsertId: string;
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const sheet = (name: string) => t.google.spreadsheets.getValues('book', name);

  beforeAll(async () => {
    t = await createSheetsTestApp({ pipeline: true });
    owner = await createActor(t as unknown as TestApp);
    projectId = await createProject(t as unknown as TestApp, owner);
    t.google.spreadsheets.create('book', ['Invoices', 'Latest']);
    const conn = body(
      await api('POST', '/integrations/sheets/connections', {
        name: 'SA',
        service_account_key: serviceAccountKey(t.google),
      }),
    ).data;
    const common = { project_id: projectId, connection_id: conn.id, spreadsheet_id: 'book' };
    appendId = body(
      await api('POST', '/integrations/sheets/exports', { ...common, sheet_name: 'Invoices', columns: APPEND_COLUMNS }),
    ).data.id;
    upsertId = body(
      await api('POST', '/integrations/sheets/exports', {
        ...common,
        sheet_name: 'Latest',
        columns: UPSERT_COLUMNS,
        mode: 'upsert',
      }),
    ).data.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('upload → extracted → header and row written with the mapped columns in order, typed; reprocess → new row (append) and same row (upsert)', async () => {
    const res = await upload(t as unknown as TestApp, owner, projectId, 'acme =1+1.txt', Buffer.from(INVOICE));
    expect(res.statusCode).toBe(201);
    const docId = body(res).data.id as string;
    const done = await waitForDocument(t as unknown as TestApp, docId);
    expect(done.status).toBe('completed');

    const rows = await eventually(() => sheet('Invoices').length === 2 && sheet('Invoices'), 'the appended row');
    expect(rows[0]).toEqual([...APPEND_COLUMNS.map((c) => c.header), 'docpipe_row_key']);
    const created = new Date(done.created_at).toISOString().slice(0, 10);
    expect(rows[1]).toEqual([
      docId,
      'acme =1+1.txt',
      'invoice',
      done.classification.confidence,
      'INV-2024-0042',
      196.35,
      { date: created },
      '',
      `${docId}:v1`,
    ]);
    expect(typeof rows[1][3]).toBe('number');

    const latest = await eventually(() => sheet('Latest').length === 2 && sheet('Latest'), 'the upserted row');
    expect(latest).toEqual([
      ['Total', 'Doc', 'Version'],
      [196.35, docId, 1],
    ]);

    const status = await eventually(async () => {
      const s = body(await api('GET', `/documents/${docId}/exports`)).data as { export_id: string; status: string }[];
      return s.length === 2 && s.every((x) => x.status === 'exported') && s;
    }, 'both exports recorded');
    expect(status.find((s) => s.export_id === appendId)).toMatchObject({
      document_version: 1,
      range: 'Invoices!A2:I2',
      error: null,
      spreadsheet_id: 'book',
      sheet_name: 'Invoices',
    });
    expect(status.find((s) => s.export_id === upsertId)).toMatchObject({ document_version: 1, range: 'Latest!A2:C2' });
    const exportedAt = (
      await t.deps.db.query<{ exported_at: Date | null }>('SELECT exported_at FROM documents WHERE id = $1', [docId])
    ).rows[0].exported_at;
    expect(exportedAt).toBeInstanceOf(Date);

    // Someone edits the upserted row; reprocessing rewrites it in place and appends a v2 row.
    t.google.spreadsheets.setValues('book', 'Latest', [
      ['Total', 'Doc', 'Version'],
      ['edited', docId, 1],
    ]);
    const re = await api('POST', `/documents/${docId}/reprocess`, { stages: ['extract'] });
    expect(re.statusCode).toBe(202);
    await eventually(() => sheet('Invoices').length === 3, 'the v2 row');
    expect(sheet('Invoices')[2][0]).toBe(docId);
    expect(sheet('Invoices')[2][8]).toBe(`${docId}:v2`);
    await eventually(() => sheet('Latest')[1]?.[2] === 2, 'the upserted row rewritten for v2');
    expect(sheet('Latest')).toEqual([
      ['Total', 'Doc', 'Version'],
      [196.35, docId, 2],
    ]);

    // Manual export of the same version: nothing new in append mode, the same row rewritten in upsert mode.
    await eventually(
      async () =>
        (body(await api('GET', `/documents/${docId}/exports`)).data as { status: string }[]).every(
          (x) => x.status !== 'pending' && x.status !== 'writing',
        ),
      'v2 recorded',
    );
    t.google.spreadsheets.setValues('book', 'Latest', [
      ['Total', 'Doc', 'Version'],
      ['edited again', docId, 2],
    ]);
    const manual = await api('POST', `/documents/${docId}/export`, {});
    expect(manual.statusCode).toBe(202);
    const outcomes = Object.fromEntries(
      (body(manual).data.exports as { export_id: string; outcome: string }[]).map((e) => [e.export_id, e.outcome]),
    );
    expect(outcomes).toEqual({ [appendId]: 'already_exported', [upsertId]: 'requeued' });
    await eventually(() => sheet('Latest')[1]?.[0] === 196.35, 'the upserted row rewritten by the manual export');
    expect(sheet('Latest')).toHaveLength(2);
    expect(sheet('Invoices')).toHaveLength(3);

    // Deleting the document keeps its rows in the sheet; its export records go with it.
    expect((await api('DELETE', `/documents/${docId}`)).statusCode).toBe(200);
    expect(sheet('Invoices')).toHaveLength(3);
    expect((await t.deps.db.query('SELECT 1 FROM document_exports WHERE document_id = $1', [docId])).rows).toHaveLength(
      0,
    );
  });

  it('a manual-trigger export is not written after extraction, only on POST /documents/{id}/export', async () => {
    const conn = body(await api('GET', '/integrations/sheets/connections')).data[0];
    t.google.spreadsheets.create('manual-book', ['Sheet1']);
    const manualId = body(
      await api('POST', '/integrations/sheets/exports', {
        project_id: projectId,
        connection_id: conn.id,
        spreadsheet_id: 'manual-book',
        sheet_name: 'Sheet1',
        trigger: 'manual',
        columns: [{ header: 'Doc', field: 'document.id' }],
      }),
    ).data.id;
    const res = await upload(
      t as unknown as TestApp,
      owner,
      projectId,
      'second.txt',
      Buffer.from(INVOICE.replace('0042', '0043')),
    );
    const docId = body(res).data.id as string;
    await waitForDocument(t as unknown as TestApp, docId);
    await eventually(() => sheet('Latest').some((r) => r[1] === docId), 'the after-extraction exports');
    expect(t.google.spreadsheets.getValues('manual-book', 'Sheet1')).toEqual([]);
    const one = await api('POST', `/documents/${docId}/export`, { export_id: manualId });
    expect(body(one).data.exports).toEqual([expect.objectContaining({ export_id: manualId, outcome: 'queued' })]);
    await eventually(() => t.google.spreadsheets.getValues('manual-book', 'Sheet1').length === 2, 'the manual row');
    expect(t.google.spreadsheets.getValues('manual-book', 'Sheet1')[1]).toEqual([docId, `${docId}:v1`]);
  });
});
