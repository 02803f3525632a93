// Write protocol under failure, against the fake Google server: a crash between Google's answer
// and the commit, 429 with Retry-After, an ambiguous 503, 403 error state (cleared by PUT), a
// header that no longer matches, batching of many documents, the outbox consumer of
// document.extracted and the safety-net sweep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentEventData } from '../../../src/modules/documents/document-event.js';
import type { DocumentRow } from '../../../src/modules/documents/documents.types.js';
import { dbKinds } from '../../helpers/db.js';
import {
  createSheetsTestApp,
  createOrgAndProject,
  eventually,
  insertExtractedDocuments,
  serviceAccountKey,
  type SheetsStack,
} from '../../helpers/sheets-harness.js';

const COLUMNS = [
  { header: 'Document', field: 'document.id' },
  { header: 'File', field: 'document.filename' },
  { header: 'Invoice no', field: 'fields.invoice_number' },
  { header: 'Total', field: 'fields.total' },
  { header: 'Date', field: 'fields.invoice_date' },
];

describe.each(dbKinds())('sheets export failures and batching (%s)', (kind) => {
  let t: SheetsStack;
  let at: Awaited<ReturnType<typeof createOrgAndProject>>;
  let connectionId: string;
  let crashes = 0;
  let book = 0;

  beforeAll(async () => {
    t = await createSheetsTestApp({
      kind,
      module: {
        flush: {
          retryBaseMs: 100,
          retryMaxMs: 2000,
          hooks: {
            afterGoogleWrite: async () => {
              if (crashes > 0) {
                crashes--;
                throw new Error('simulated crash after Google accepted the write');
              }
            },
          },
        },
      },
    });
    at = await createOrgAndProject(t.deps);
    const conn = await t.sheets.connections.create(
      at.scope,
      { name: 'SA', service_account_key: serviceAccountKey(t.google) },
      null,
    );
    connectionId = conn.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh spreadsheet and an export into it (own project unless given). */
  async function newExport(over: Record<string, unknown> = {}, projectId = at.projectId) {
    const id = `book-${++book}`;
    t.google.spreadsheets.create(id, ['Sheet1']);
    const e = await t.sheets.exports.create(
      at.scope,
      {
        project_id: projectId,
        connection_id: connectionId,
        spreadsheet_id: id,
        sheet_name: 'Sheet1',
        columns: COLUMNS,
        ...over,
      },
      null,
    );
    return { exportId: e.id, book: id };
  }
  const appendPath = (book: string) => new RegExp(`/spreadsheets/${book}/values/[^/]+:append$`);
  const calls = (book: string, kind: string) =>
    t.google.calls.filter((c) => c.kind === kind && c.path.includes(`/spreadsheets/${book}`));
  const rowsOf = (exportId: string) =>
    t.deps.db
      .query<{ document_id: string; status: string; attempts: number; range: string | null; error: string | null }>(
        'SELECT document_id, status, attempts, range, error FROM document_exports WHERE export_id = $1 ORDER BY seq',
        [exportId],
      )
      .then((r) => r.rows);
  const allExported = async (exportId: string, n: number) => {
    const rows = await rowsOf(exportId);
    return rows.length === n && rows.every((r) => r.status === 'exported') && rows;
  };
  /** Commits a document.extracted event for `d`, as its extract stage does. */
  const extractedEvent = (d: DocumentRow) =>
    t.deps.db.tx((q) =>
      t.deps.events.emitter.insert(q, {
        orgId: d.org_id,
        environment: d.environment,
        type: 'document.extracted',
        data: documentEventData(d, { stage: 'extract' }),
      }),
    );
  const docsOf = async (projectId: string) =>
    (await t.deps.db.query<DocumentRow>('SELECT * FROM documents WHERE project_id = $1 ORDER BY id', [projectId])).rows;
  async function project() {
    return ((await t.deps.services.projects.create(at.scope, { name: `p${book}` })) as { id: string }).id;
  }

  it('many documents are batched into one append; values are typed and formulas stay text', async () => {
    const projectId = await project();
    const { exportId, book } = await newExport({}, projectId);
    const docs = await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 40, (i) => ({
      filename: i === 0 ? '=HYPERLINK("http://evil.example","x")' : `inv-${i}.pdf`,
      fields: i === 1 ? { total: { value: 12.5, confidence: 1, method: 'label' } } : undefined,
    }));
    // Buffer every document first (no flush may run in between), then write once.
    await t.stopWorkers();
    for (const d of docs) await t.sheets.exports.queueExtracted(d.id, d.version);
    const r = await t.sheets.flushNow(exportId);
    expect(r).toMatchObject({ outcome: 'written', rows: 40 });
    expect(calls(book, 'values.append')).toHaveLength(1);
    const sheet = t.google.spreadsheets.getValues(book, 'Sheet1');
    expect(sheet).toHaveLength(41);
    expect(sheet[0]).toEqual(['Document', 'File', 'Invoice no', 'Total', 'Date', 'docpipe_row_key']);
    expect(sheet[1]).toEqual([
      docs[0].id,
      '=HYPERLINK("http://evil.example","x")',
      'INV-00000',
      100,
      { date: '2024-03-05' },
      `${docs[0].id}:v1`,
    ]);
    expect(sheet[2]).toEqual([docs[1].id, 'inv-1.pdf', '', 12.5, '', `${docs[1].id}:v1`]);
    const rows = await rowsOf(exportId);
    expect(rows.map((x) => x.range)).toEqual(docs.map((_, i) => `Sheet1!A${i + 2}:F${i + 2}`));
    // Re-running the jobs for the same versions writes nothing new.
    for (const d of docs.slice(0, 5)) expect(await t.sheets.exports.queueExtracted(d.id, d.version)).toBe(0);
    expect(await t.sheets.flushNow(exportId)).toEqual({ outcome: 'idle' });
    expect(t.google.spreadsheets.getValues(book, 'Sheet1')).toHaveLength(41);
    await t.startWorkers();
  });

  it('a job retried after Google accepted the append but before the commit writes no duplicate row', async () => {
    const projectId = await project();
    const { exportId, book } = await newExport({}, projectId);
    const docs = await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 3);
    crashes = 1;
    await t.sheets.producer.addDocuments(docs);
    const rows = await eventually(() => allExported(exportId, 3), 'all three rows recorded');
    expect(crashes).toBe(0);
    const sheet = t.google.spreadsheets.getValues(book, 'Sheet1');
    const keys = sheet.slice(1).map((r) => r[5]);
    expect(keys.sort()).toEqual(docs.map((d) => `${d.id}:v1`).sort());
    // The rows were found by their key instead of being appended again.
    expect(calls(book, 'values.append').filter((c) => c.status === 200)).toHaveLength(
      calls(book, 'values.append').length,
    );
    expect(sheet).toHaveLength(1 + 3);
    expect(rows.some((x) => x.attempts === 2)).toBe(true);
    expect(calls(book, 'values.get').some((c) => decodeURIComponent(c.path).includes('Sheet1!F:F'))).toBe(true);
  });

  it('upsert mode: a job retried after a crash finds the rows by document id and rewrites them in place', async () => {
    const projectId = await project();
    const { exportId, book } = await newExport(
      {
        mode: 'upsert',
        columns: [
          { header: 'Doc', field: 'document.id' },
          { header: 'Total', field: 'fields.total' },
        ],
      },
      projectId,
    );
    const docs = await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 2);
    crashes = 1;
    await t.sheets.producer.addDocuments(docs);
    await eventually(() => allExported(exportId, 2), 'both rows recorded');
    expect(crashes).toBe(0);
    const sheet = t.google.spreadsheets.getValues(book, 'Sheet1');
    // Document jobs run concurrently, so either may have been queued first.
    expect(sheet[0]).toEqual(['Doc', 'Total']);
    expect(sheet.slice(1).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      [docs[0].id, 100],
      [docs[1].id, 100.01],
    ]);
    expect(sheet).toHaveLength(3);
    expect(calls(book, 'values.append').filter((c) => c.status === 200)).toHaveLength(1);
    expect(calls(book, 'values.batchUpdate').length).toBeGreaterThanOrEqual(1);
  });

  it('document.extracted events buffer each version once, however often they are relayed; a manual export gets nothing', async () => {
    const projectId = await project();
    const { exportId, book } = await newExport({}, projectId);
    const other = await newExport({ mode: 'upsert', trigger: 'manual' }, projectId);
    await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 12);
    const docs = await docsOf(projectId);
    // Two events for the same version of two documents (a re-delivered stage job cannot do
    // this, but a relay that dies before its commit hands the same events over again).
    const events: string[] = [];
    for (const d of [...docs, docs[0], docs[1]]) events.push(await extractedEvent(d));
    await eventually(() => allExported(exportId, 12), 'all rows recorded');
    // Relayed again: nothing new is buffered or written.
    await t.deps.db.query('UPDATE events SET relayed_at = NULL WHERE id = ANY($1::text[])', [events]);
    while ((await t.deps.events.relay.runOnce()) > 0) {
      /* drain */
    }
    const again = await Promise.all(docs.slice(0, 3).map((d) => t.sheets.exports.bufferExtracted(d)));
    expect(again).toEqual([0, 0, 0]);
    expect(await allExported(exportId, 12)).toBeTruthy();
    expect(t.google.spreadsheets.getValues(book, 'Sheet1')).toHaveLength(13);
    // The manual-trigger export got nothing from the events.
    expect(await rowsOf(other.exportId)).toEqual([]);
  });

  it('an extraction committed while no relay ran is exported once one starts; a reprocessed version is not', async () => {
    const projectId = await project();
    const { exportId, book } = await newExport({}, projectId);
    const [kept, reprocessed] = await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 2);
    await t.stopWorkers();
    const [keptRow, reRow] = await docsOf(projectId).then((ds) => [
      ds.find((d) => d.id === kept.id)!,
      ds.find((d) => d.id === reprocessed.id)!,
    ]);
    await extractedEvent(keptRow);
    await extractedEvent(reRow);
    // Reprocessed before the relay saw its event: that version is no longer the document's.
    await t.deps.db.query('UPDATE documents SET version = version + 1 WHERE id = $1', [reprocessed.id]);
    expect(await rowsOf(exportId)).toEqual([]);
    await t.startWorkers();
    await eventually(() => allExported(exportId, 1), 'the row recorded');
    expect((await rowsOf(exportId)).map((r) => r.document_id)).toEqual([kept.id]);
    expect(t.google.spreadsheets.getValues(book, 'Sheet1')).toHaveLength(2);
  });

  it('an ambiguous 503 on append is retried after checking the sheet: one row', async () => {
    const projectId = await project();
    const { exportId, book } = await newExport({}, projectId);
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 1);
    t.google.failNext(1, 503, { path: appendPath(book) });
    await t.sheets.producer.addDocuments([doc]);
    await eventually(() => allExported(exportId, 1), 'the row recorded');
    expect(calls(book, 'values.append').map((c) => c.status)).toEqual([503, 200]);
    // Before appending again it looked for the row (by its key column) in case the 503 had applied it.
    expect(calls(book, 'values.get').some((c) => decodeURIComponent(c.path).includes('Sheet1!F:F'))).toBe(true);
    expect(t.google.spreadsheets.getValues(book, 'Sheet1')).toHaveLength(2);
  });

  it('429 with Retry-After: waits at least that long, then writes once', async () => {
    const projectId = await project();
    const { exportId, book } = await newExport({}, projectId);
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 1);
    t.google.failNext(1, 429, { retryAfter: 1, path: appendPath(book) });
    await t.sheets.producer.addDocuments([doc]);
    const during = await eventually(async () => {
      const e = await t.sheets.exports.get(at.scope, exportId);
      return e.last_error ? e : null;
    }, 'the retry state');
    expect(during).toMatchObject({ status: 'active' });
    expect(during.last_error).toContain('429');
    await eventually(() => allExported(exportId, 1), 'the row recorded');
    const appends = calls(book, 'values.append');
    expect(appends.map((c) => c.status)).toEqual([429, 200]);
    expect(appends[1].at - appends[0].at).toBeGreaterThanOrEqual(950);
    expect(t.google.spreadsheets.getValues(book, 'Sheet1')).toHaveLength(2);
    expect(await t.sheets.exports.get(at.scope, exportId)).toMatchObject({
      status: 'active',
      last_error: null,
      retry_at: null,
    });
  });

  it('403 puts the export in error state with the reason and stops writing; PUT clears it and the held rows are written', async () => {
    const projectId = await project();
    const { exportId } = await newExport({ spreadsheet_id: 'locked' }, projectId);
    t.google.spreadsheets.create('locked', ['Sheet1'], { allow: ['nobody@example.test'] });
    const docs = await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 2);
    await t.sheets.producer.addDocuments(docs);
    const failed = await eventually(async () => {
      const e = await t.sheets.exports.get(at.scope, exportId);
      return e.status === 'error' && e;
    }, 'the error state');
    expect(failed.last_error).toContain('403');
    expect(failed.last_error).toContain('permission');
    const lockedCalls = () => t.google.calls.filter((c) => c.path.includes('/spreadsheets/locked')).length;
    const before = lockedCalls();
    // No more attempts: a flush of an export in error state does not call Google.
    expect(await t.sheets.flushNow(exportId)).toEqual({ outcome: 'error' });
    expect(lockedCalls()).toBe(before);
    const held = await rowsOf(exportId);
    expect(held.map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(held[0].error).toContain('403');
    const status = await t.sheets.exports.forDocument(at.scope, docs[0].id);
    expect(status[0]).toMatchObject({ status: 'pending' });
    expect(status[0].error).toContain('403');

    t.google.spreadsheets.create('unlocked', ['Sheet1']);
    const updated = await t.sheets.exports.update(at.scope, exportId, { spreadsheet_id: 'unlocked' });
    expect(updated).toMatchObject({ status: 'active', last_error: null });
    await eventually(() => allExported(exportId, 2), 'the held rows written');
    expect(t.google.spreadsheets.getValues('unlocked', 'Sheet1')).toHaveLength(3);
  });

  it('a header that does not match the mapping is reported, not overwritten', async () => {
    const projectId = await project();
    const { exportId, book } = await newExport({}, projectId);
    const theirs = [
      ['Document', 'Filename', 'Invoice no', 'Amount'],
      ['someone', 'else', 'row', 1],
    ];
    t.google.spreadsheets.setValues(book, 'Sheet1', theirs);
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 1);
    await t.sheets.producer.addDocuments([doc]);
    const failed = await eventually(async () => {
      const e = await t.sheets.exports.get(at.scope, exportId);
      return e.status === 'error' && e;
    }, 'the header error');
    expect(failed.last_error).toContain('column B is "Filename", expected "File"');
    expect(failed.last_error).toContain('column D is "Amount", expected "Total"');
    expect(t.google.spreadsheets.getValues(book, 'Sheet1')).toEqual(theirs);
    expect(calls(book, 'values.append')).toHaveLength(0);
    // The document is held, not dropped: the status says why.
    expect((await t.sheets.exports.forDocument(at.scope, doc.id))[0]).toMatchObject({
      status: 'pending',
      error: failed.last_error,
    });
  });

  it('a header prepared by hand for the mapping is kept; only the row-key header cell is added', async () => {
    const projectId = await project();
    const { exportId, book } = await newExport({}, projectId);
    t.google.spreadsheets.setValues(book, 'Sheet1', [[' document', 'FILE', 'Invoice no', 'Total', 'Date']]);
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 1);
    await t.sheets.producer.addDocuments([doc]);
    await eventually(() => allExported(exportId, 1), 'the row recorded');
    const sheet = t.google.spreadsheets.getValues(book, 'Sheet1');
    expect(sheet[0]).toEqual([' document', 'FILE', 'Invoice no', 'Total', 'Date', 'docpipe_row_key']);
    expect(sheet[1][0]).toBe(doc.id);
  });

  it('the sweep flushes buffers whose flush job was lost', async () => {
    const projectId = await project();
    const { exportId, book } = await newExport({}, projectId);
    const [lostFlush] = await insertExtractedDocuments(t.deps.db, { orgId: at.orgId, projectId }, 1);
    await t.deps.db.query(
      `INSERT INTO document_exports (export_id, document_id, document_version, status, context, queued_at, updated_at)
       VALUES ($1, $2, 1, 'pending', $3, now() - interval '1 minute', now() - interval '1 minute')`,
      [
        exportId,
        lostFlush.id,
        JSON.stringify({ document: { id: lostFlush.id }, classification: null, fields: { total: 5 } }),
      ],
    );
    const swept = await t.sheets.sweep();
    expect(swept.flushes).toBeGreaterThanOrEqual(1);
    await eventually(() => allExported(exportId, 1), 'the row recorded');
    expect(t.google.spreadsheets.getValues(book, 'Sheet1')).toHaveLength(2);
  });
});
