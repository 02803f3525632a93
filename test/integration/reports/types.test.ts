// Each report type's numbers against the hand-counted fixture (test/helpers/reports-fixture.ts),
// on PGlite and (with TEST_DATABASE_URL) PostgreSQL. Rows of organization B and of A's test
// environment are in the same tables and must not show up anywhere.
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/client.js';
import { ResultWriter, readResult } from '../../../src/modules/reports/output/result-file.js';
import type { Filters, ReportType } from '../../../src/modules/reports/reports.types.js';
import { REPORT_QUERIES } from '../../../src/modules/reports/types/index.js';
import { createTestDb, dbKinds, type TestDb } from '../../helpers/db.js';
import { FIXTURE, seedReportsFixture } from '../../helpers/reports-fixture.js';

type Sections = Record<string, Record<string, unknown>[]>;

async function run(
  db: Db,
  type: ReportType,
  o: { filters?: Filters; project_ids?: string[]; env?: 'live' | 'test'; org?: string; batchSize?: number } = {},
) {
  const gzip = createGzip();
  const chunks: Buffer[] = [];
  gzip.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => gzip.on('end', r));
  const writer = new ResultWriter(gzip);
  const summary = await REPORT_QUERIES[type]({
    db,
    scope: { orgId: o.org ?? FIXTURE.orgA, environment: o.env ?? 'live' },
    from: FIXTURE.from,
    to: FIXTURE.to,
    timezone: FIXTURE.timezone,
    dataSource: { project_ids: o.project_ids },
    filters: o.filters ?? {},
    writer,
    batchSize: o.batchSize,
  });
  const info = await writer.finish();
  await ended;
  const sections: Sections = {};
  const columns: Record<string, string[]> = {};
  for await (const item of readResult(Readable.from([Buffer.concat(chunks)]))) {
    if (item.kind === 'section') {
      sections[item.section.name] = [];
      columns[item.section.name] = item.section.columns.map((c) => c.key);
      continue;
    }
    const keys = columns[item.section];
    sections[item.section].push(Object.fromEntries(keys.map((k, i) => [k, item.values[i]])));
  }
  return { summary, sections, info, columns };
}

describe.each(dbKinds())('report types on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
    await seedReportsFixture(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('document_summary counts per Berlin day by status, type, source and project', async () => {
    const { summary, sections, info } = await run(t.db, 'document_summary');
    const rows = sections.daily.map((r) => [r.day, r.dimension, r.key, r.label, r.documents, r.pages]);
    expect(rows).toEqual([
      ['2026-03-01', 'status', 'completed', 'completed', 2, 3],
      ['2026-03-01', 'status', 'needs_review', 'needs_review', 1, 1],
      ['2026-03-01', 'type', 'invoice', 'invoice', 2, 3],
      ['2026-03-01', 'type', 'receipt', 'receipt', 1, 1],
      ['2026-03-01', 'source', 'email', 'email', 1, 1],
      ['2026-03-01', 'source', 'upload', 'upload', 2, 3],
      ['2026-03-01', 'project', 'prj_fix1', 'Invoices', 3, 4],
      ['2026-03-02', 'status', 'completed', 'completed', 1, 3],
      ['2026-03-02', 'status', 'failed', 'failed', 1, 0],
      ['2026-03-02', 'type', null, '(unclassified)', 1, 0],
      ['2026-03-02', 'type', 'invoice', 'invoice', 1, 3],
      ['2026-03-02', 'source', 'api', 'api', 1, 0],
      ['2026-03-02', 'source', 'upload', 'upload', 1, 3],
      ['2026-03-02', 'project', 'prj_fix2', 'Receipts', 2, 3],
    ]);
    expect(info.rowCount).toBe(14);
    expect(summary).toEqual({
      documents: 5,
      pages: 7,
      bytes: 3900,
      days_with_documents: 2,
      by_status: { completed: 3, needs_review: 1, failed: 1 },
      by_type: { invoice: 3, receipt: 1, '(unclassified)': 1 },
      by_source: { upload: 3, email: 1, api: 1 },
      by_project: [
        { id: 'prj_fix1', name: 'Invoices', documents: 3 },
        { id: 'prj_fix2', name: 'Receipts', documents: 2 },
      ],
    });
  });

  it('document_summary applies filters and project_ids', async () => {
    expect((await run(t.db, 'document_summary', { filters: { status: ['completed'] } })).summary.documents).toBe(3);
    expect(
      (await run(t.db, 'document_summary', { filters: { classification: ['invoice'], min_confidence: 0.96 } })).summary
        .documents,
    ).toBe(2);
    expect((await run(t.db, 'document_summary', { filters: { source: ['email', 'api'] } })).summary.documents).toBe(2);
    expect((await run(t.db, 'document_summary', { project_ids: ['prj_fix2'] })).summary.documents).toBe(2);
    // another organization's project id narrows to nothing instead of reaching into it
    expect((await run(t.db, 'document_summary', { project_ids: ['prj_fixB'] })).summary.documents).toBe(0);
  });

  it('isolates environments and organizations', async () => {
    const test = await run(t.db, 'document_summary', { env: 'test' });
    expect(test.summary).toMatchObject({
      documents: 1,
      pages: 50,
      by_project: [{ id: 'prj_fix3', name: 'Test project', documents: 1 }],
    });
    const b = await run(t.db, 'document_summary', { org: FIXTURE.orgB });
    expect(b.summary).toMatchObject({ documents: 1, by_status: { failed: 1 } });
    const exportTest = await run(t.db, 'extraction_export', { env: 'test' });
    expect(exportTest.sections.documents.map((r) => r.document_id)).toEqual(['doc_08']);
    const usageB = await run(t.db, 'usage', { org: FIXTURE.orgB });
    expect(usageB.summary).toMatchObject({
      api_requests: 50,
      documents: 1,
      webhook_deliveries: 1,
      webhook_attempts: 1,
      plan: 'free',
    });
  });

  it('extraction_export pages through ties in (created_at, id) order with fields, confidences and links', async () => {
    const { sections, summary, columns, info } = await run(t.db, 'extraction_export', {
      filters: { fields: ['invoice_number', 'total'] },
      batchSize: 2,
    });
    expect(columns.documents).toEqual([
      'document_id',
      'filename',
      'project_id',
      'project_name',
      'status',
      'source',
      'classification_type',
      'classification_confidence',
      'uploaded_at',
      'extracted_at',
      'invoice_number',
      'invoice_number_confidence',
      'total',
      'total_confidence',
      'document_url',
      'file_url',
    ]);
    const rows = sections.documents;
    expect(rows.map((r) => r.document_id)).toEqual(['doc_02', 'doc_01', 'doc_07', 'doc_03', 'doc_04']);
    expect(rows[1]).toEqual({
      document_id: 'doc_01',
      filename: 'doc_01.pdf',
      project_id: 'prj_fix1',
      project_name: 'Invoices',
      status: 'completed',
      source: 'upload',
      classification_type: 'invoice',
      classification_confidence: 0.95,
      uploaded_at: '2026-03-01T08:00:00.000Z',
      extracted_at: '2026-03-01T08:00:09.000Z',
      invoice_number: 'INV-1',
      invoice_number_confidence: 0.9,
      total: 100.5,
      total_confidence: 0.8,
      document_url: '/api/v1/documents/doc_01',
      file_url: '/api/v1/documents/doc_01/content',
    });
    expect([rows[2].invoice_number, rows[2].total, rows[2].total_confidence]).toEqual([null, 42, 0.99]);
    expect([rows[3].invoice_number, rows[3].invoice_number_confidence]).toEqual(['=SUM(A1)', 0.7]);
    expect(rows[4]).toMatchObject({ classification_type: null, invoice_number: null, total: null, status: 'failed' });
    expect(summary).toEqual({ documents: 5, fields: ['invoice_number', 'total'] });
    expect(info.rowCount).toBe(5);
  });

  it('extraction_export finds the fields itself when none are named', async () => {
    const { summary, sections } = await run(t.db, 'extraction_export', { filters: { status: ['completed'] } });
    expect(summary).toEqual({ documents: 3, fields: ['invoice_number', 'total'] });
    expect(sections.documents.map((r) => r.document_id)).toEqual(['doc_01', 'doc_07', 'doc_03']);
  });

  it('processing_performance: stage durations and waits, throughput per UTC hour, failures', async () => {
    const { sections, summary } = await run(t.db, 'processing_performance');
    expect(
      sections.stages.map((r) => [
        r.stage,
        r.runs,
        r.p50_ms,
        r.p95_ms,
        r.mean_ms,
        r.max_ms,
        r.wait_p50_ms,
        r.wait_p95_ms,
      ]),
    ).toEqual([
      ['parse', 3, 4000, 5800, 4000, 6000, 1000, 1900],
      ['embed', 1, 1000, 1000, 1000, 1000, 1000, 1000],
      ['classify', 3, 500, 950, 666.7, 1000, 500, 1850],
      ['extract', 2, 2000, 2900, 2000, 3000, 2500, 2500],
      ['total', 2, 15000, 19500, 15000, 20000, null, null],
    ]);
    expect(sections.throughput).toEqual([
      {
        hour: '2026-03-01T00:00:00.000Z',
        hour_local: '2026-03-01T01:00:00+01:00',
        parse: 1,
        embed: 0,
        classify: 1,
        extract: 0,
        completed: 0,
      },
      {
        hour: '2026-03-01T08:00:00.000Z',
        hour_local: '2026-03-01T09:00:00+01:00',
        parse: 2,
        embed: 1,
        classify: 2,
        extract: 1,
        completed: 2,
      },
      {
        hour: '2026-03-02T12:00:00.000Z',
        hour_local: '2026-03-02T13:00:00+01:00',
        parse: 1,
        embed: 0,
        classify: 0,
        extract: 0,
        completed: 1,
      },
      {
        hour: '2026-03-02T13:00:00.000Z',
        hour_local: '2026-03-02T14:00:00+01:00',
        parse: 0,
        embed: 0,
        classify: 0,
        extract: 1,
        completed: 0,
      },
    ]);
    expect(sections.failures).toEqual([
      {
        stage: 'parse',
        code: 'CORRUPT',
        documents: 1,
        example_message: 'bad pdf',
        last_failed_at: '2026-03-02T22:30:00.000Z',
      },
    ]);
    expect(summary).toMatchObject({
      completed: 3,
      failed: 1,
      busiest_hour_completed: 2,
      stages: { parse: { p50_ms: 4000, p95_ms: 5800, runs: 3 } },
    });
  });

  it('classification_quality: confidence buckets, review rate, corrections predicted → confirmed', async () => {
    const { sections, summary } = await run(t.db, 'classification_quality');
    expect(sections.confidence.filter((r) => (r.documents as number) > 0)).toEqual([
      { from: 0.4, to: 0.5, documents: 1, share: 0.25 },
      { from: 0.5, to: 0.6, documents: 1, share: 0.25 },
      { from: 0.6, to: 0.7, documents: 1, share: 0.25 },
      { from: 0.9, to: 1, documents: 1, share: 0.25 },
    ]);
    expect(sections.confidence).toHaveLength(10);
    expect(sections.types).toEqual([
      {
        type: 'invoice',
        documents: 2,
        mean_confidence: 0.785,
        needs_review: 0,
        review_rate: 0,
        confirmed: 1,
        corrected: 0,
        correction_rate: 0,
      },
      {
        type: 'receipt',
        documents: 2,
        mean_confidence: 0.5,
        needs_review: 2,
        review_rate: 1,
        confirmed: 1,
        corrected: 1,
        correction_rate: 0.5,
      },
    ]);
    expect(sections.corrections).toEqual([
      { predicted_type: 'invoice', confirmed_type: 'invoice', documents: 1, changed: 'no' },
      { predicted_type: 'receipt', confirmed_type: 'invoice', documents: 1, changed: 'yes' },
    ]);
    expect(summary).toEqual({
      classified: 4,
      mean_confidence: 0.6425,
      needs_review: 2,
      review_rate: 0.5,
      confirmed: 2,
      corrected: 1,
      correction_rate: 0.25,
      manual_only: 0,
    });
  });

  it('usage: requests per key and UTC day, documents and pages per month, webhook deliveries and failures', async () => {
    const { sections, summary } = await run(t.db, 'usage');
    expect(sections.api_requests).toEqual([
      { day: '2026-03-01', key_id: null, key_name: 'dashboard sessions', key_display: null, requests: 3 },
      { day: '2026-03-01', key_id: 'key_fixA', key_name: 'ci', key_display: 'svc_live_ab…yz', requests: 10 },
      { day: '2026-03-02', key_id: 'key_fixA', key_name: 'ci', key_display: 'svc_live_ab…yz', requests: 5 },
    ]);
    expect(sections.documents).toEqual([{ month: '2026-03', documents: 5, pages: 7, bytes: 3900, failed: 1 }]);
    expect(sections.webhooks).toEqual([
      {
        day: '2026-03-01',
        deliveries: 1,
        delivered: 1,
        failed: 0,
        pending: 0,
        suspended_or_gone: 0,
        attempts: 2,
        failed_attempts: 1,
      },
      {
        day: '2026-03-02',
        deliveries: 2,
        delivered: 0,
        failed: 1,
        pending: 1,
        suspended_or_gone: 0,
        attempts: 2,
        failed_attempts: 2,
      },
    ]);
    expect(summary).toEqual({
      plan: 'pro',
      api_requests: 18,
      api_requests_by_key: { key_fixA: 15, sessions: 3 },
      documents: 5,
      pages: 7,
      webhook_deliveries: 3,
      webhook_deliveries_failed: 1,
      webhook_attempts: 4,
      webhook_attempts_failed: 3,
    });
  });
});
