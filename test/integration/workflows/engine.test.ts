// Engine behaviour through the API: per-node retries with the same request id, on_error continue
// with an error branch, the run timeout, max_concurrent_runs, the sweeper for a run whose job
// vanished, and a hostile expression stopped while /health keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { createProject } from '../../helpers/pipeline.js';
import { eventually, insertExtractedDocuments } from '../../helpers/sheets-harness.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { createWorkflowTestApp, type WorkflowStack } from '../../helpers/workflows-harness.js';
import { runJobId } from '../../../src/modules/workflows/jobs.js';

describe('workflow engine', () => {
  let t: WorkflowStack;
  let owner: Actor;
  let sink: WebhookSink;
  let base: string;
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const create = async (name: string, nodes: unknown[], edges: unknown[], settings?: unknown) => {
    const res = await api('POST', '/workflows', { name, nodes, edges, ...(settings ? { settings } : {}) });
    expect(res.statusCode, res.body).toBe(201);
    return body(res).data.id as string;
  };
  const start = async (id: string, payload: unknown = {}) => {
    const res = await api('POST', `/workflows/${id}/run`, payload);
    expect(res.statusCode, res.body).toBe(202);
    return body(res).data.id as string;
  };
  const finished = (runId: string, timeoutMs = 20_000) =>
    eventually(
      async () => {
        const r = body(await api('GET', `/workflows/runs/${runId}`)).data;
        return !['queued', 'running'].includes(r.status) && r;
      },
      `run ${runId} to end`,
      timeoutMs,
    );
  const manual = { id: 'start', type: 'trigger.manual', config: {} };

  beforeAll(async () => {
    sink = await startWebhookSink();
    base = new URL(sink.url).origin;
    t = await createWorkflowTestApp();
    owner = await createActor(t as unknown as TestApp);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('retries a failing request with its backoff, with the same request id every time', async () => {
    let n = 0;
    sink.setStatus((r) => (r.path === '/flaky' && ++n <= 2 ? 503 : 200));
    const id = await create(
      'Flaky',
      [
        manual,
        {
          id: 'call',
          type: 'http_request',
          config: { method: 'GET', url: `${base}/flaky` },
          retry: { max_tries: 3, backoff: { type: 'fixed', delay_ms: 50 } },
        },
      ],
      [{ source: 'start', target: 'call' }],
    );
    const run = await finished(await start(id));
    sink.setStatus(200);
    expect(run.status).toBe('completed');
    const call = run.steps.find((s: any) => s.node_id === 'call');
    expect(call).toMatchObject({ status: 'completed', attempts: 3, output: { response: { status: 200 } } });
    const sent = sink.requests.filter((r) => r.path === '/flaky');
    expect(sent.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
    expect(new Set(sent.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it('on_error continue records the failure and follows the error branch', async () => {
    sink.setStatus((r) => (r.path === '/missing' ? 404 : 200));
    const id = await create(
      'Continue',
      [
        manual,
        {
          id: 'call',
          type: 'http_request',
          config: { url: `${base}/missing` },
          on_error: 'continue',
          retry: { max_tries: 3 },
        },
        { id: 'ok', type: 'condition', config: { expression: 'true' } },
        { id: 'oops', type: 'condition', config: { expression: 'steps.call.error.code = "HTTP_STATUS"' } },
      ],
      [
        { source: 'start', target: 'call' },
        { source: 'call', target: 'ok' },
        { source: 'call', target: 'oops', when: 'error' },
      ],
    );
    const run = await finished(await start(id));
    sink.setStatus(200);
    expect(run.status).toBe('completed');
    const s = Object.fromEntries(run.steps.map((x: any) => [x.node_id, x]));
    // A 404 is not retried (it will not get better).
    expect(s.call).toMatchObject({
      status: 'failed',
      branch: 'error',
      attempts: 1,
      error: { code: 'HTTP_STATUS' },
      output: { response: { status: 404 } },
    });
    expect(s.ok.status).toBe('completed');
    expect(s.oops).toMatchObject({ status: 'completed', output: { result: true } });
  });

  it('fails a run that outlives timeout_seconds, even while it waits', async () => {
    const id = await create(
      'Slow',
      [manual, { id: 'wait', type: 'delay', config: { seconds: 600 } }],
      [{ source: 'start', target: 'wait' }],
      { timeout_seconds: 1 },
    );
    const run = await finished(await start(id));
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('RUN_TIMEOUT');
  });

  it('a delay parks the run and resumes it', async () => {
    const id = await create(
      'Nap',
      [
        manual,
        { id: 'wait', type: 'delay', config: { seconds: 1 } },
        { id: 'after', type: 'condition', config: { expression: 'true' } },
      ],
      [
        { source: 'start', target: 'wait' },
        { source: 'wait', target: 'after' },
      ],
    );
    const run = await finished(await start(id));
    expect(run.status).toBe('completed');
    expect(run.steps.map((s: any) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect(Date.parse(run.steps[1].finished_at) - Date.parse(run.steps[1].started_at)).toBeGreaterThanOrEqual(900);
  });

  it('max_concurrent_runs holds further runs in the queue', async () => {
    const id = await create(
      'One at a time',
      [manual, { id: 'wait', type: 'delay', config: { seconds: 1 } }],
      [{ source: 'start', target: 'wait' }],
      { max_concurrent_runs: 1 },
    );
    const ids = [await start(id), await start(id), await start(id)];
    let most = 0;
    await eventually(
      async () => {
        const { rows } = await t.deps.db.query<{ status: string }>(
          'SELECT status FROM workflow_runs WHERE workflow_id = $1',
          [id],
        );
        most = Math.max(most, rows.filter((r) => r.status === 'running').length);
        return rows.every((r) => r.status === 'completed');
      },
      'all three runs',
      30_000,
    );
    expect(most).toBe(1);
    const runs = await Promise.all(ids.map(async (r) => body(await api('GET', `/workflows/runs/${r}`)).data));
    const spans = runs.map((r) => [Date.parse(r.started_at), Date.parse(r.finished_at)]).sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBeGreaterThanOrEqual(spans[i - 1][1]);
  });

  it('the sweeper re-queues a run whose job vanished', async () => {
    await t.stopWorkers();
    try {
      const id = await create(
        'Lost',
        [manual, { id: 'x', type: 'condition', config: { expression: '1 = 1' } }],
        [{ source: 'start', target: 'x' }],
      );
      const runId = await start(id);
      // The job is lost (Redis data gone) and the run has not moved for a while.
      await (await t.deps.queues.get('workflows').getJob(runJobId(runId)))!.remove();
      await t.deps.db.query(`UPDATE workflow_runs SET updated_at = now() - interval '1 hour' WHERE id = $1`, [runId]);
      expect(await t.deps.workflows.sweep()).toEqual({ requeued: 1, failed: 0 });
      expect(await t.deps.workflows.sweep()).toEqual({ requeued: 0, failed: 0 });
      await t.startWorkers();
      expect((await finished(runId)).status).toBe('completed');
    } finally {
      await t.startWorkers();
    }
  });

  it('stops a hostile expression while /health keeps answering', async () => {
    const id = await create(
      'Hostile',
      [
        manual,
        {
          id: 'spin',
          type: 'condition',
          config: { expression: '($f := function($n){ $n = 0 ? 0 : $f($n - 1) + $f($n - 1) }; $f(60)) > 0' },
        },
      ],
      [{ source: 'start', target: 'spin' }],
    );
    const runId = await start(id);
    let answeredMeanwhile = false;
    for (let i = 0; i < 400; i++) {
      const r = body(await api('GET', `/workflows/runs/${runId}`)).data;
      if (!['queued', 'running'].includes(r.status)) break;
      if (
        r.status === 'running' &&
        r.steps.some((s: any) => s.node_id === 'start') &&
        !r.steps.some((s: any) => s.node_id === 'spin')
      ) {
        const h = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
        expect(h.statusCode).toBe(200);
        const still = body(await api('GET', `/workflows/runs/${runId}`)).data;
        if (!still.steps.some((s: any) => s.node_id === 'spin')) answeredMeanwhile = true;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const run = await finished(runId);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'EXPRESSION_TIMEOUT', node_id: 'spin' });
    expect(answeredMeanwhile).toBe(true);
  });

  it('classify and extract compute in a dry run and write in execute mode', async () => {
    const projectId = await createProject(t as unknown as TestApp, owner);
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId }, 1, () => ({
      classification: null,
      fields: null,
    }));
    const text = [
      'Northwind Office Supply GmbH',
      'Invoice',
      'Invoice No: RE-2024-77',
      'Invoice date: 05.03.2024',
      'Subtotal: 45.00 EUR',
      'VAT 19%: 8.55 EUR',
      'Total: 53.55 EUR',
    ].join('\n');
    await t.deps.db.query('UPDATE documents SET text_content = $2 WHERE id = $1', [doc.id, text]);
    const id = await create(
      'Read it',
      [manual, { id: 'cls', type: 'classify', config: {} }, { id: 'ext', type: 'extract', config: {} }],
      [
        { source: 'start', target: 'cls' },
        { source: 'cls', target: 'ext' },
      ],
    );
    const dry = await finished(await start(id, { mode: 'dry_run', input: { document_id: doc.id } }));
    expect(dry.status, JSON.stringify(dry.error)).toBe('completed');
    const dryOut = Object.fromEntries(dry.steps.map((x: any) => [x.node_id, x.output]));
    expect(dryOut.cls.type).toBe('invoice');
    expect(dryOut.ext.fields.total).toBe(53.55);
    const untouched = body(await api('GET', `/documents/${doc.id}`)).data;
    expect(untouched.classification).toBeNull();
    expect(untouched.fields).toBeNull();
    const run = await finished(await start(id, { input: { document_id: doc.id } }));
    expect(run.status, JSON.stringify(run.error)).toBe('completed');
    const d = body(await api('GET', `/documents/${doc.id}`)).data;
    expect(d.classification.type).toBe('invoice');
    expect(d.fields.total.value).toBe(53.55);
    const { rows } = await t.deps.db.query<{ type: string; data: any }>(
      `SELECT type, data FROM events WHERE data->>'documentId' = $1 AND type LIKE 'document.%' ORDER BY created_at, id`,
      [doc.id],
    );
    expect(rows.map((r) => r.type)).toEqual(['document.classified', 'document.extracted']);
    expect(rows.every((r) => r.data.runId === run.id && r.data.workflowChain[0] === id)).toBe(true);
  });

  it('a run keeps the graph and version it started with', async () => {
    const nodes = [
      manual,
      { id: 'wait', type: 'delay', config: { seconds: 1 } },
      { id: 'check', type: 'condition', config: { expression: '1 = 1' } },
    ];
    const id = await create('Versioned', nodes, [
      { source: 'start', target: 'wait' },
      { source: 'wait', target: 'check' },
    ]);
    const runId = await start(id);
    const edited = await api('PUT', `/workflows/${id}`, {
      nodes: nodes.map((n) => (n.id === 'check' ? { ...n, config: { expression: '1 = 2' } } : n)),
    });
    expect(body(edited).data.version).toBe(2);
    const run = await finished(runId);
    expect(run.workflow_version).toBe(1);
    expect(run.steps.find((x: any) => x.node_id === 'check').output).toEqual({ result: true });
    const again = await finished(await start(id));
    expect(again.workflow_version).toBe(2);
    expect(again.steps.find((x: any) => x.node_id === 'check').output).toEqual({ result: false });
  });
});
