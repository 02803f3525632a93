// The documents API over the real pipeline: upload limits and checks, duplicates, listing with
// filters and full-text search, reading a document, its file and text, corrections, deletion,
// events and project statistics.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createProject, multipart, upload, waitForDocument } from '../../helpers/pipeline.js';
import {
  api,
  dataOf,
  errorCode,
  eventTypes,
  INVOICE_LINES,
  invoiceText,
  LETTER_TEXT,
  RECEIPT_TEXT,
} from './fixtures.js';

const blobPath = (t: DocsApp, sha: string) => join(t.config.dataDir, 'files', sha.slice(0, 2), sha.slice(2, 4), sha);

describe.each(dbKinds())('documents API (%s)', (kind) => {
  let t: DocsApp;
  let actor: Actor;
  /** Another organization, which must see none of the first one's documents. */
  let other: Actor;
  let projectId: string;
  let invoicePdf: Buffer;
  let docs: { invoice: any; receipt: any; letter: any };

  beforeAll(async () => {
    t = await createDocsApp({ kind, env: { MAX_UPLOAD_MB: '1' } });
    actor = await createActor(t);
    other = await createActor(t);
    projectId = await createProject(t, actor, { name: 'Inbox' });
    invoicePdf = await makeTextPdf({ pages: [INVOICE_LINES] });
    const up = async (name: string, data: Buffer, extra: Record<string, string> = {}) =>
      dataOf(await upload(t, actor, projectId, name, data, extra), 201);
    const invoice = await up('invoice.pdf', invoicePdf, { metadata: JSON.stringify({ customer: 'c-17' }) });
    const receipt = await up('receipt.txt', Buffer.from(RECEIPT_TEXT));
    const letter = await up('letter.txt', Buffer.from(LETTER_TEXT));
    docs = { invoice, receipt, letter };
    for (const d of [invoice, receipt, letter]) expect((await waitForDocument(t, d.id)).status).toBe('completed');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers an upload with 201 and the document in status uploaded', () => {
    const d = docs.invoice;
    expect(d).toMatchObject({
      project_id: projectId,
      filename: 'invoice.pdf',
      mime_type: 'application/pdf',
      size_bytes: invoicePdf.length,
      source: 'upload',
      status: 'uploaded',
      duplicate: false,
      metadata: { customer: 'c-17' },
    });
    expect(d.id).toMatch(/^doc_/);
    expect(d.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rejects what it must not store: too large, empty, wrong type, unknown or archived project, bad fields', async () => {
    const before = readdirSync(join(t.config.dataDir, 'files', 'tmp'));
    // 1.5 MB against MAX_UPLOAD_MB=1: the stream is cut while it is stored, and the partial file removed.
    const big = await upload(t, actor, projectId, 'big.txt', Buffer.alloc(1_500_000, 'a'));
    expect(big.statusCode, big.body).toBe(413);
    expect(errorCode(big)).toBe('PAYLOAD_TOO_LARGE');
    // Far too large: refused from the declared length.
    const huge = await upload(t, actor, projectId, 'huge.txt', Buffer.alloc(3_000_000, 'b'));
    expect(huge.statusCode).toBe(413);
    expect(readdirSync(join(t.config.dataDir, 'files', 'tmp'))).toEqual(before);

    const empty = await upload(t, actor, projectId, 'empty.pdf', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(errorCode(empty)).toBe('VALIDATION_ERROR');

    const pdfOnly = await createProject(t, actor, { name: 'PDF only', allowed_file_types: ['pdf'] });
    // The name says PDF, the bytes say text: judged from the bytes.
    const disguised = await upload(t, actor, pdfOnly, 'invoice.pdf', Buffer.from(invoiceText(1)));
    expect(disguised.statusCode, disguised.body).toBe(415);
    expect(errorCode(disguised)).toBe('UNSUPPORTED_MEDIA_TYPE');
    const realPdf = await upload(t, actor, pdfOnly, 'scan.txt', await makeTextPdf({ pages: [['A PDF named .txt']] }));
    expect(realPdf.statusCode, realPdf.body).toBe(201);
    expect(dataOf(realPdf, 201).mime_type).toBe('application/pdf');

    const unknown = await upload(t, actor, 'prj_doesnotexist', 'a.txt', Buffer.from('hello'));
    expect(unknown.statusCode).toBe(404);
    const foreign = await upload(t, other, projectId, 'a.txt', Buffer.from('hello from elsewhere'));
    expect(foreign.statusCode).toBe(404);

    const archived = await createProject(t, actor, { name: 'Old' });
    dataOf(await api(t, actor, 'POST', `/projects/${archived}/archive`));
    const toArchived = await upload(t, actor, archived, 'a.txt', Buffer.from('hello archive'));
    expect(toArchived.statusCode).toBe(409);
    expect(errorCode(toArchived)).toBe('CONFLICT');

    const badMeta = await upload(t, actor, projectId, 'a.txt', Buffer.from('metadata test'), { metadata: '{not json' });
    expect(badMeta.statusCode).toBe(400);
    const noFile = multipart({ project_id: projectId });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/v1/documents',
      headers: { ...actor.auth, ...noFile.headers },
      payload: noFile.payload,
    });
    expect(missing.statusCode).toBe(400);
    const notMultipart = await api(t, actor, 'POST', '/documents', { project_id: projectId });
    expect(notMultipart.statusCode).toBe(415);
    // None of the refused uploads left a document behind.
    const all = dataOf(await api(t, actor, 'GET', '/documents?per_page=100'));
    expect(all.map((d: any) => d.filename).sort()).toEqual(['invoice.pdf', 'letter.txt', 'receipt.txt', 'scan.txt']);
  });

  it('reports the same bytes in the same project as a duplicate unless allow_duplicate=true', async () => {
    const again = await upload(t, actor, projectId, 'copy-of-invoice.pdf', invoicePdf);
    const dup = dataOf(again, 200);
    expect(dup).toMatchObject({ id: docs.invoice.id, duplicate: true, filename: 'invoice.pdf' });
    const elsewhere = await createProject(t, actor, { name: 'Elsewhere' });
    const inOther = dataOf(await upload(t, actor, elsewhere, 'invoice.pdf', invoicePdf), 201);
    expect(inOther.id).not.toBe(docs.invoice.id);
    const forced = dataOf(
      await upload(t, actor, projectId, 'invoice-again.pdf', invoicePdf, { allow_duplicate: 'true' }),
      201,
    );
    expect(forced).toMatchObject({ duplicate: false, sha256: docs.invoice.sha256 });
    expect(forced.id).not.toBe(docs.invoice.id);
    for (const id of [inOther.id, forced.id]) {
      expect((await waitForDocument(t, id)).status).toBe('completed');
      dataOf(await api(t, actor, 'DELETE', `/documents/${id}`));
    }
    // Both copies are gone; the file stays while the original still uses it.
    expect(existsSync(blobPath(t, docs.invoice.sha256))).toBe(true);
  });

  it('shows a processed document: classification, fields with confidence and method, timings, pages', async () => {
    const d = dataOf(await api(t, actor, 'GET', `/documents/${docs.invoice.id}`));
    expect(d.status).toBe('completed');
    expect(d.error).toBeNull();
    expect(d.page_count).toBe(1);
    expect(d.classification).toMatchObject({ type: 'invoice', method: expect.any(String), confirmed: false });
    expect(d.classification.confidence).toBeGreaterThan(0);
    expect(d.classification.confidence).toBeLessThanOrEqual(1);
    // Every stage run records when its work began, before it finished.
    const runs = await t.deps.db.query<{ stage: string; ok: boolean }>(
      'SELECT stage, started_at <= finished_at AS ok FROM stage_runs WHERE document_id = $1',
      [docs.invoice.id],
    );
    expect(runs.rows.length).toBeGreaterThanOrEqual(3);
    expect(runs.rows.every((r) => r.ok === true)).toBe(true);
    expect(d.fields.invoice_number).toMatchObject({ value: 'INV-2024-0042', method: expect.any(String) });
    for (const f of Object.values(d.fields) as any[]) {
      expect(f.confidence).toBeGreaterThan(0);
      expect(f.confidence).toBeLessThanOrEqual(1);
      expect(typeof f.method).toBe('string');
    }
    const ts = d.timestamps;
    for (const k of ['uploaded_at', 'parsed_at', 'embedded_at', 'classified_at', 'extracted_at', 'completed_at'])
      expect(ts[k], k).toBeTruthy();
    expect(
      new Date(ts.parsed_at) <= new Date(ts.embedded_at) &&
        new Date(ts.embedded_at) <= new Date(ts.classified_at) &&
        new Date(ts.classified_at) <= new Date(ts.extracted_at),
    ).toBe(true);
    expect(d.source_metadata).toEqual({});
    expect(d.pipeline.current_stage).toBeNull();

    expect((await api(t, other, 'GET', `/documents/${docs.invoice.id}`)).statusCode).toBe(404);
    expect((await api(t, actor, 'GET', '/documents/doc_nope')).statusCode).toBe(404);
  });

  it('serves the original bytes with the right content type, and the extracted text', async () => {
    const pdf = await api(t, actor, 'GET', `/documents/${docs.invoice.id}/content`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.equals(invoicePdf)).toBe(true);
    const txt = await api(t, actor, 'GET', `/documents/${docs.receipt.id}/content`);
    expect(String(txt.headers['content-type'])).toMatch(/^text\/plain/);
    expect(txt.body).toBe(RECEIPT_TEXT);
    const text = dataOf(await api(t, actor, 'GET', `/documents/${docs.invoice.id}/text`));
    expect(text.text).toContain('INV-2024-0042');
    expect(text.text).toMatch(/Paper A4\s+10\s+4\.50\s+45\.00/);
  });

  it('lists with filters, full-text search and pages', async () => {
    const list = async (qs: string) => {
      const res = await api(t, actor, 'GET', `/documents?project_id=${projectId}&${qs}`);
      expect(res.statusCode, res.body).toBe(200);
      const b = res.json();
      return { ids: b.data.map((d: any) => d.id) as string[], pagination: b.pagination, data: b.data };
    };
    const all = await list('');
    expect(all.ids.sort()).toEqual([docs.invoice.id, docs.receipt.id, docs.letter.id].sort());
    expect(all.pagination).toMatchObject({ page: 1, per_page: 20, total: 3, total_pages: 1 });
    expect(all.data.every((d: any) => !('text_content' in d))).toBe(true);
    expect((await list('classification=invoice')).ids).toEqual([docs.invoice.id]);
    expect((await list('classification=receipt')).ids).toEqual([docs.receipt.id]);
    expect((await list('status=completed')).ids).toHaveLength(3);
    expect((await list('status=failed')).ids).toHaveLength(0);
    expect((await list('source=upload')).ids).toHaveLength(3);
    expect((await list('source=email')).ids).toHaveLength(0);
    expect((await list('q=croissant')).ids).toEqual([docs.receipt.id]);
    expect((await list('q=INV-2024-0042')).ids).toEqual([docs.invoice.id]);
    expect((await list('q=zebra')).ids).toEqual([]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const past = new Date(Date.now() - 3_600_000).toISOString();
    expect((await list(`created_after=${encodeURIComponent(future)}`)).ids).toEqual([]);
    expect(
      (await list(`created_after=${encodeURIComponent(past)}&created_before=${encodeURIComponent(future)}`)).ids,
    ).toHaveLength(3);
    // Newest first, two per page.
    const p1 = await list('per_page=2&page=1');
    const p2 = await list('per_page=2&page=2');
    expect(p1.pagination).toMatchObject({ page: 1, per_page: 2, total: 3, total_pages: 2 });
    expect(p2.ids).toHaveLength(1);
    expect([...p1.ids, ...p2.ids]).toEqual([docs.letter.id, docs.receipt.id, docs.invoice.id]);
    expect((await api(t, actor, 'GET', '/documents?status=bogus')).statusCode).toBe(400);
    expect((await api(t, actor, 'GET', '/documents?per_page=101')).statusCode).toBe(400);
    // Another organization sees none of it.
    expect(dataOf(await api(t, other, 'GET', '/documents'))).toEqual([]);
  });

  it("lists exactly the documents asked for by id, leaving out unknown and other organizations' ids", async () => {
    const byIds = async (who: Actor, ids: string[]) => {
      const res = await api(t, who, 'GET', `/documents?ids=${ids.join(',')}&per_page=100`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { id: string; status: string }[]).map((d) => d.id).sort();
    };
    expect(await byIds(actor, [docs.invoice.id, docs.letter.id, 'doc_unknown'])).toEqual(
      [docs.invoice.id, docs.letter.id].sort(),
    );
    // The other organization's ids get the same answer as unknown ones: nothing.
    expect(await byIds(other, [docs.invoice.id, docs.letter.id])).toEqual([]);
    const otherProject = await createProject(t, other);
    const foreign = dataOf(
      await upload(t, other, otherProject, 'other.txt', Buffer.from(LETTER_TEXT + '\nother')),
      201,
    );
    expect(await byIds(actor, [docs.receipt.id, foreign.id])).toEqual([docs.receipt.id]);
    expect(await byIds(other, [docs.receipt.id, foreign.id])).toEqual([foreign.id]);
    // Bounded: 100 ids at most, id characters only.
    const many = Array.from({ length: 101 }, (_, i) => `doc_${i}`);
    expect(errorCode(await api(t, actor, 'GET', `/documents?ids=${many.join(',')}`))).toBe('VALIDATION_ERROR');
    expect((await api(t, actor, 'GET', `/documents?ids=${many.slice(1).join(',')}`)).statusCode).toBe(200);
    expect(errorCode(await api(t, actor, 'GET', `/documents?ids=${encodeURIComponent("doc_1','x")}`))).toBe(
      'VALIDATION_ERROR',
    );
    expect(errorCode(await api(t, actor, 'GET', '/documents?ids=doc_1,,doc_2'))).toBe('VALIDATION_ERROR');
  });

  it('writes one event per transition, in the outbox, listed by GET /events', async () => {
    expect(await eventTypes(t, actor, docs.invoice.id)).toEqual([
      'document.classified',
      'document.extracted',
      'document.processed',
      'document.uploaded',
    ]);
    const events = dataOf(await api(t, actor, 'GET', `/events?document_id=${docs.receipt.id}`));
    const classified = events.find((e: any) => e.type === 'document.classified');
    expect(classified.data).toMatchObject({
      documentId: docs.receipt.id,
      filename: 'receipt.txt',
      classification: { type: 'receipt' },
    });
    expect(events.find((e: any) => e.type === 'document.extracted').data.status).toBe('completed');
    expect(events.every((e: any) => /^evt_/.test(e.id) && typeof e.createdAt === 'string')).toBe(true);
  });

  it('takes corrections from a person and marks them confirmed', async () => {
    const patched = dataOf(
      await api(t, actor, 'PATCH', `/documents/${docs.letter.id}`, {
        classification: { type: 'contract' },
        fields: { reference: 'L-7', note: { value: 'moved' } },
      }),
    );
    expect(patched.classification).toEqual({ type: 'contract', confidence: 1, method: 'manual', confirmed: true });
    expect(patched.fields.reference).toEqual({ value: 'L-7', confidence: 1, method: 'manual', confirmed: true });
    expect(patched.fields.note.value).toBe('moved');
    expect(patched.status).toBe('completed');
    // The machine's prediction stays with the correction (classification-quality reports use it).
    const stored = await t.deps.db.query<{
      c: { predicted?: { type: string; method: string; needs_review: boolean } };
    }>('SELECT classification AS c FROM documents WHERE id = $1', [docs.letter.id]);
    expect(stored.rows[0].c.predicted).toMatchObject({
      type: expect.any(String),
      confidence: expect.any(Number),
      needs_review: false,
    });
    expect(stored.rows[0].c.predicted?.method).not.toBe('manual');
    expect(
      (await api(t, actor, 'GET', `/documents?project_id=${projectId}&classification=contract`))
        .json()
        .data.map((d: any) => d.id),
    ).toEqual([docs.letter.id]);
    expect((await api(t, actor, 'PATCH', `/documents/${docs.letter.id}`, { status: 'completed' })).statusCode).toBe(
      400,
    );
    expect((await api(t, actor, 'PATCH', `/documents/${docs.letter.id}`, {})).statusCode).toBe(400);
    expect((await api(t, actor, 'PATCH', '/documents/doc_nope', { filename: 'x' })).statusCode).toBe(404);
  });

  it('shows real numbers in project stats and the project document list', async () => {
    const stats = dataOf(await api(t, actor, 'GET', `/projects/${projectId}/stats`));
    expect(stats.total_documents).toBe(3);
    expect(stats.documents_by_status).toEqual({ completed: 3 });
    expect(stats.documents_by_classification).toMatchObject({ invoice: 1, receipt: 1 });
    expect(stats.total_bytes).toBe(
      invoicePdf.length + Buffer.byteLength(RECEIPT_TEXT) + Buffer.byteLength(LETTER_TEXT),
    );
    expect(stats.total_pages).toBe(3);
    const res = await api(t, actor, 'GET', `/projects/${projectId}/documents?limit=2`);
    expect(res.statusCode).toBe(200);
    expect(res.json().pagination).toMatchObject({ total: 3, per_page: 2 });
    expect(res.json().data).toHaveLength(2);
    expect(
      (await api(t, actor, 'GET', `/projects/${projectId}/documents?classification=invoice`))
        .json()
        .data.map((d: any) => d.id),
    ).toEqual([docs.invoice.id]);
    expect((await api(t, actor, 'GET', '/projects/prj_nope/documents')).statusCode).toBe(404);
  });

  it('deletes a document with its file and emits document.deleted', async () => {
    const extra = dataOf(await upload(t, actor, projectId, 'short-lived.txt', Buffer.from(invoiceText('del'))), 201);
    await waitForDocument(t, extra.id);
    expect(existsSync(blobPath(t, extra.sha256))).toBe(true);
    expect(dataOf(await api(t, actor, 'DELETE', `/documents/${extra.id}`))).toEqual({ id: extra.id, deleted: true });
    expect((await api(t, actor, 'GET', `/documents/${extra.id}`)).statusCode).toBe(404);
    expect((await api(t, actor, 'GET', `/documents/${extra.id}/content`)).statusCode).toBe(404);
    expect(existsSync(blobPath(t, extra.sha256))).toBe(false);
    const { rows } = await t.deps.db.query<{ n: number }>(
      'SELECT count(*) AS n FROM stage_runs WHERE document_id = $1',
      [extra.id],
    );
    expect(Number(rows[0].n)).toBe(0);
    const deleted = dataOf(await api(t, actor, 'GET', `/events?type=document.deleted&document_id=${extra.id}`));
    expect(deleted).toHaveLength(1);
    expect(deleted[0].data).toMatchObject({ documentId: extra.id, filename: 'short-lived.txt', status: 'deleted' });
    expect((await api(t, actor, 'DELETE', `/documents/${extra.id}`)).statusCode).toBe(404);
  });
});
