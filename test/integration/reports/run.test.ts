// Executions end to end on the hand-counted fixture (test/helpers/reports-fixture.ts): each type
// run through POST /reports/{id}/run by the worker role, its numbers as in types.test.ts, the
// downloads parsed back (CSV by csv-parse, XLSX by exceljs, JSON), report.completed in the outbox
// for completed and failed executions, 409 before completion, an execution whose worker died run
// again after its job lock lapsed, stuck executions re-queued by the sweep, retention and report
// deletion removing executions with their files.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { Worker } from 'bullmq';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { FIXTURE, seedReportsFixture } from '../../helpers/reports-fixture.js';
import { createReportsStack, until, type ReportsStack } from '../../helpers/reports-harness.js';
import { executionJobId, REPORTS_QUEUE } from '../../../src/modules/reports/jobs.js';

/** 1-2 March 2026 in Berlin: the fixture's period. */
const PERIOD = { from: '2026-03-01', to: '2026-03-02' };

describe.each(dbKinds())('report executions on %s', (kind) => {
  let t: ReportsStack;
  let owner: Actor;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const create = async (payload: Record<string, unknown>) => {
    const res = await call('POST', '/reports', {
      data_source: { period: PERIOD, timezone: FIXTURE.timezone },
      ...payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return body(res).data.id as string;
  };
  /** Waits for the execution to end (watching the database), then reads it through the API. */
  const finished = async (reportId: string, exeId: string) => {
    await until(
      async () => ['completed', 'failed'].includes((await t.deps.reports.repos.executions.statusOf(exeId)) ?? ''),
      `execution ${exeId}`,
    );
    return body(await call('GET', `/reports/${reportId}/executions/${exeId}`)).data;
  };
  const runToEnd = async (reportId: string) => {
    const res = await call('POST', `/reports/${reportId}/run`);
    expect(res.statusCode, res.body).toBe(202);
    expect(body(res).data).toMatchObject({
      status: 'queued',
      trigger: 'manual',
      period: { from: FIXTURE.from.toISOString(), to: FIXTURE.to.toISOString() },
    });
    return finished(reportId, body(res).data.id);
  };
  const download = (reportId: string, exeId: string, format: string, extra = '') =>
    call('GET', `/reports/${reportId}/executions/${exeId}/download?format=${format}${extra}`);
  const events = async (exeId: string) =>
    (
      await t.testDb.db.query<{ type: string; data: any; org_id: string; environment: string }>(
        `SELECT type, data, org_id, environment FROM events WHERE type = 'report.completed' AND data->>'executionId' = $1`,
        [exeId],
      )
    ).rows;

  beforeAll(async () => {
    t = await createReportsStack({ kind });
    await seedReportsFixture(t.testDb.db);
    // The fixture's organization A, signed in as a user of it.
    const actor = await createActor(t as unknown as TestApp);
    await t.testDb.db.query('UPDATE users SET org_id = $1 WHERE id = $2', [FIXTURE.orgA, actor.userId]);
    // The fixture's plan is pro, whose 120 requests a minute these tests exceed: enterprise here,
    // with a limit of its own (the usage report shows the plan).
    await t.testDb.db.query(
      `UPDATE organizations SET plan = 'enterprise', rate_limit_per_minute = 1000000 WHERE id = $1`,
      [FIXTURE.orgA],
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: actor.email, password: actor.password },
    });
    owner = { ...actor, orgId: FIXTURE.orgA, auth: { authorization: `Bearer ${res.json().data.accessToken}` } };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('extraction_export: completed with its rows; CSV, JSON and XLSX parse back; report.completed in the outbox', async () => {
    const id = await create({
      name: 'Invoice export',
      type: 'extraction_export',
      filters: { fields: ['invoice_number', 'total'] },
    });
    const e = await runToEnd(id);
    expect(e).toMatchObject({
      status: 'completed',
      row_count: 5,
      summary: { documents: 5, fields: ['invoice_number', 'total'] },
      error: null,
      attempts: 1,
    });
    expect(e.download_path).toBe(`/api/v1/reports/${id}/executions/${e.id}/download`);
    expect(Date.parse(e.finished_at)).toBeGreaterThanOrEqual(Date.parse(e.started_at));

    const csv = await download(id, e.id, 'csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="Invoice-export-2026-03-02.csv"; filename*=UTF-8''Invoice-export-2026-03-02.csv`,
    );
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.document_id)).toEqual(['doc_02', 'doc_01', 'doc_07', 'doc_03', 'doc_04']);
    expect(rows[1]).toMatchObject({
      invoice_number: 'INV-1',
      total: '100.5',
      total_confidence: '0.8',
      project_name: 'Invoices',
      uploaded_at: '2026-03-01T08:00:00.000Z',
    });
    // Text a spreadsheet would run as a formula is defused.
    expect(rows[3].invoice_number).toBe("'=SUM(A1)");

    const json = await download(id, e.id, 'json');
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    const doc = json.json();
    expect(doc.report).toEqual({ id, name: 'Invoice export', type: 'extraction_export' });
    expect(doc.execution).toMatchObject({ id: e.id, row_count: 5 });
    expect(doc.sections).toHaveLength(1);
    expect(doc.sections[0].rows.map((r: any) => r.document_id)).toEqual([
      'doc_02',
      'doc_01',
      'doc_07',
      'doc_03',
      'doc_04',
    ]);
    expect(doc.sections[0].rows[2]).toMatchObject({ total: 42, total_confidence: 0.99, invoice_number: null });

    const xlsx = await t.app.inject({
      method: 'GET',
      url: `/api/v1/reports/${id}/executions/${e.id}/download?format=xlsx`,
      headers: owner.auth,
    });
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.read(Readable.from([xlsx.rawPayload]));
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('Extracted fields');
    expect(ws.rowCount).toBe(6);
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 3)).toEqual(['document_id', 'filename', 'project_id']);
    const col = (k: string) => header.indexOf(k) + 1;
    expect(ws.getRow(3).getCell(col('document_id')).value).toBe('doc_01');
    expect(ws.getRow(3).getCell(col('total')).value).toBe(100.5);
    expect(ws.getRow(5).getCell(col('invoice_number')).value).toBe('=SUM(A1)');
    expect((ws.getRow(3).getCell(col('uploaded_at')).value as Date).toISOString()).toBe('2026-03-01T08:00:00.000Z');

    const ev = await events(e.id);
    expect(ev).toHaveLength(1);
    expect(ev[0]).toMatchObject({ org_id: FIXTURE.orgA, environment: 'live' });
    expect(ev[0].data).toMatchObject({
      reportId: id,
      executionId: e.id,
      status: 'completed',
      rowCount: 5,
      period: { from: FIXTURE.from.toISOString(), to: FIXTURE.to.toISOString() },
      downloadPath: e.download_path,
    });
    const list = body(await call('GET', `/reports/${id}/executions?status=completed`));
    expect(list.data.map((x: any) => x.id)).toEqual([e.id]);
    expect(body(await call('GET', `/reports/${id}/executions?status=failed`)).data).toEqual([]);
    expect(body(await call('GET', `/reports/${id}`)).data.last_execution).toMatchObject({
      id: e.id,
      status: 'completed',
      row_count: 5,
    });
  });

  it('every other type through the API: the hand-counted numbers, one CSV per section', async () => {
    const summary = await runToEnd(await create({ name: 'Summary', type: 'document_summary' }));
    expect(summary).toMatchObject({ status: 'completed', row_count: 14 });
    expect(summary.summary).toMatchObject({
      documents: 5,
      pages: 7,
      bytes: 3900,
      by_status: { completed: 3, needs_review: 1, failed: 1 },
    });

    const perfId = await create({ name: 'Performance', type: 'processing_performance' });
    const perf = await runToEnd(perfId);
    expect(perf.summary).toMatchObject({
      completed: 3,
      failed: 1,
      stages: { parse: { p50_ms: 4000, p95_ms: 5800, runs: 3 } },
    });
    expect(perf.sections.map((s: any) => s.name)).toEqual(['stages', 'throughput', 'failures']);
    const failures = parse((await download(perfId, perf.id, 'csv', '&section=failures')).body, { columns: true });
    expect(failures).toEqual([
      {
        stage: 'parse',
        code: 'CORRUPT',
        documents: '1',
        example_message: 'bad pdf',
        last_failed_at: '2026-03-02T22:30:00.000Z',
      },
    ]);
    const stages = parse((await download(perfId, perf.id, 'csv')).body, { columns: true }) as Record<string, string>[];
    expect(stages.map((r) => [r.stage, r.runs, r.p50_ms])).toEqual([
      ['parse', '3', '4000'],
      ['embed', '1', '1000'],
      ['classify', '3', '500'],
      ['extract', '2', '2000'],
      ['total', '2', '15000'],
    ]);
    const badSection = await download(perfId, perf.id, 'csv', '&section=nope');
    expect(badSection.statusCode).toBe(400);
    expect(body(badSection).error!.details).toEqual([expect.objectContaining({ field: 'section' })]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.read(Readable.from([(await download(perfId, perf.id, 'xlsx')).rawPayload]));
    expect(wb.worksheets.map((w) => w.rowCount)).toEqual([6, 5, 2]);

    const quality = await runToEnd(await create({ name: 'Quality', type: 'classification_quality' }));
    expect(quality.summary).toEqual({
      classified: 4,
      mean_confidence: 0.6425,
      needs_review: 2,
      review_rate: 0.5,
      confirmed: 2,
      corrected: 1,
      correction_rate: 0.25,
      manual_only: 0,
    });

    const usage = await runToEnd(await create({ name: 'Usage', type: 'usage' }));
    expect(usage.summary).toEqual({
      plan: 'enterprise',
      api_requests: 18,
      api_requests_by_key: { key_fixA: 15, sessions: 3 },
      documents: 5,
      pages: 7,
      webhook_deliveries: 3,
      webhook_deliveries_failed: 1,
      webhook_attempts: 4,
      webhook_attempts_failed: 3,
    });
    // The same report in test mode counts the test environment only.
    const testRes = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...owner.auth, 'x-environment': 'test' },
      payload: {
        name: 'Sandbox summary',
        type: 'document_summary',
        data_source: { period: PERIOD, timezone: FIXTURE.timezone },
      },
    });
    const testId = body(testRes).data.id;
    const run = body(
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/reports/${testId}/run`,
        headers: { ...owner.auth, 'x-environment': 'test' },
      }),
    ).data;
    await until(
      async () => (await t.deps.reports.repos.executions.statusOf(run.id)) === 'completed',
      'test-mode execution',
    );
    const done = body(
      await t.app.inject({
        url: `/api/v1/reports/${testId}/executions/${run.id}`,
        headers: { ...owner.auth, 'x-environment': 'test' },
      }),
    ).data;
    expect(done.summary).toMatchObject({ documents: 1, pages: 50 });
    expect((await events(run.id))[0]).toMatchObject({ environment: 'test' });
  });

  it('a failed execution is recorded with its error and sends report.completed with status failed; downloads answer 409 until completed', async () => {
    const id = await create({ name: 'Doomed', type: 'document_summary' });
    await t.stopWorkers();
    try {
      const queued = body(await call('POST', `/reports/${id}/run`)).data;
      const early = await download(id, queued.id, 'csv');
      expect(early.statusCode).toBe(409);
      expect(body(early)).toMatchObject({ success: false, error: { code: 'CONFLICT' } });
      expect(body(early).error!.message).toContain('queued');
      // The run's stored definition names a zone the database does not know: the query fails.
      await t.testDb.db.query(
        `UPDATE report_executions SET definition = jsonb_set(definition, '{timezone}', '"Nowhere/Zone"') WHERE id = $1`,
        [queued.id],
      );
      await t.deps.queues.get('reports').remove(executionJobId(queued.id));
      await expect(t.deps.reports.runner.run(queued.id, { finalAttempt: false })).rejects.toThrow();
      expect(body(await call('GET', `/reports/${id}/executions/${queued.id}`)).data.status).toBe('running');
      expect(await t.deps.reports.runner.run(queued.id, { finalAttempt: true })).toBe('failed');
    } finally {
      await t.startWorkers();
    }
    const e = body(await call('GET', `/reports/${id}/executions?status=failed`)).data[0];
    expect(e).toMatchObject({
      status: 'failed',
      row_count: null,
      download_path: null,
      attempts: 2,
      error: { code: 'REPORT_FAILED' },
    });
    expect(e.error.message).toMatch(/Nowhere\/Zone|time zone/i);
    expect((await download(id, e.id, 'json')).statusCode).toBe(409);
    const ev = await events(e.id);
    expect(ev).toHaveLength(1);
    expect(ev[0].data).toMatchObject({
      reportId: id,
      executionId: e.id,
      status: 'failed',
      rowCount: 0,
      downloadPath: null,
      error: { code: 'REPORT_FAILED' },
    });
  });

  it('a queued execution whose job vanished is queued again by the sweep and completes', async () => {
    const id = await create({ name: 'Lost job', type: 'usage' });
    await t.stopWorkers();
    let exeId: string;
    try {
      exeId = body(await call('POST', `/reports/${id}/run`)).data.id;
      await t.deps.queues.get('reports').remove(executionJobId(exeId));
      await t.testDb.db.query(`UPDATE report_executions SET updated_at = now() - interval '1 hour' WHERE id = $1`, [
        exeId,
      ]);
      const swept = await t.deps.reports.sweep();
      expect(swept.executions).toEqual({ requeued: 1, failed: 0 });
    } finally {
      await t.startWorkers();
    }
    expect((await finished(id, exeId!)).status).toBe('completed');
  });

  it('an execution whose worker died mid-run runs again elsewhere once its job lock lapses; one result, one event', async () => {
    const id = await create({ name: 'Crashed', type: 'usage' });
    await t.stopWorkers();
    // A worker that takes the job, starts the execution and then never answers again (as if its
    // process had been killed): its job lock is not renewed once it is closed without waiting.
    let taken!: () => void;
    const tookIt = new Promise<void>((r) => {
      taken = r;
    });
    const doomed = new Worker(
      REPORTS_QUEUE,
      async (job) => {
        await t.deps.reports.repos.executions.start(job.data.executionId);
        taken();
        return new Promise(() => undefined);
      },
      {
        connection: t.deps.queues.workerConnection(),
        prefix: t.deps.queues.prefix,
        lockDuration: 1000,
        stalledInterval: 500,
      },
    );
    const exeId = body(await call('POST', `/reports/${id}/run`)).data.id as string;
    await tookIt;
    expect(body(await call('GET', `/reports/${id}/executions/${exeId}`)).data.status).toBe('running');
    await doomed.close(true);
    await t.startWorkers();
    const e = await finished(id, exeId);
    expect(e).toMatchObject({ status: 'completed', attempts: 2, error: null });
    expect(await events(exeId)).toHaveLength(1);
  });

  it('retention and deletion remove executions with their result files', async () => {
    // Filters no other test uses: result files are content-addressed, so equal results share one.
    const id = await create({
      name: 'Kept a week',
      type: 'extraction_export',
      retention_days: 7,
      filters: { fields: ['total'] },
    });
    const old = await runToEnd(id);
    const recent = await runToEnd(id);
    const keyOf = async (exeId: string) =>
      (await t.testDb.db.query<{ file_key: string }>('SELECT file_key FROM report_executions WHERE id = $1', [exeId]))
        .rows[0]?.file_key;
    const oldKey = await keyOf(old.id);
    // Same content, same content address: the file stays while the recent execution uses it.
    expect(await keyOf(recent.id)).toBe(oldKey);
    expect(await t.deps.reportFiles.exists(oldKey)).toBe(true);
    await t.testDb.db.query(`UPDATE report_executions SET created_at = now() - interval '8 days' WHERE id = $1`, [
      old.id,
    ]);
    expect((await t.deps.reports.sweep()).retention).toEqual({ executions: 1, files: 0 });
    expect((await call('GET', `/reports/${id}/executions/${old.id}`)).statusCode).toBe(404);
    expect(await t.deps.reportFiles.exists(oldKey)).toBe(true);
    await t.testDb.db.query(`UPDATE report_executions SET created_at = now() - interval '8 days' WHERE id = $1`, [
      recent.id,
    ]);
    expect((await t.deps.reports.sweep()).retention).toEqual({ executions: 1, files: 1 });
    expect(await t.deps.reportFiles.exists(oldKey)).toBe(false);

    // Deleting a report takes its schedule, executions and files.
    const gone = await create({ name: 'Short lived', type: 'processing_performance', filters: { status: 'failed' } });
    await call('POST', `/reports/${gone}/schedule`, { time: '05:00' });
    const e = await runToEnd(gone);
    const key = await keyOf(e.id);
    expect(await t.deps.reportFiles.exists(key)).toBe(true);
    const del = await call('DELETE', `/reports/${gone}`);
    expect(body(del).data).toEqual({ id: gone, deleted: true, files_removed: 1 });
    expect(await t.deps.reportFiles.exists(key)).toBe(false);
    const left = await t.testDb.db.query(
      'SELECT 1 FROM report_executions WHERE report_id = $1 UNION ALL SELECT 1 FROM report_schedules WHERE report_id = $1',
      [gone],
    );
    expect(left.rows).toHaveLength(0);
    expect((await call('GET', `/reports/${gone}/executions/${e.id}/download`)).statusCode).toBe(404);
  });
});
