// Manual runs end to end: the same workflow on the same document in dry_run (nothing changes:
// database and fake Sheets compared before and after, no request reaches the receiver) and in
// execute mode (fields set as method workflow, row appended, webhook event delivered signed,
// HTTP request sent signed with a stable request id, document moved), and the order of the
// workflow.* events of each run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { createProject } from '../../helpers/pipeline.js';
import { eventually, insertExtractedDocuments, serviceAccountKey } from '../../helpers/sheets-harness.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { createWorkflowTestApp, type WorkflowStack } from '../../helpers/workflows-harness.js';
import { verifyWebhookSignature } from '../../../src/modules/webhooks/index.js';

describe('workflow runs: execute vs dry_run', () => {
  let t: WorkflowStack;
  let owner: Actor;
  let sink: WebhookSink;
  let projectA: string;
  let projectB: string;
  let exportId: string;
  let workflowId: string;
  let secret: string;
  let base: string;
  const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const sheet = () => t.google.spreadsheets.getValues('book', 'Approved');

  const graph = () => ({
    nodes: [
      { id: 'start', type: 'trigger.manual', config: {} },
      { id: 'big', type: 'condition', config: { expression: 'document.fields.total.value > variables.threshold' } },
      {
        id: 'approve',
        type: 'set_fields',
        config: {
          fields: { approved: 'true', doubled: 'document.fields.total.value * 2' },
          metadata: { reviewer: '"workflow"' },
        },
      },
      { id: 'sheet', type: 'export_sheets', config: { export_id: exportId } },
      {
        id: 'notify',
        type: 'send_webhook_event',
        config: {
          url: `${base}/events`,
          event: 'invoice.approved',
          payload: '{"doc": document.id, "approved": document.fields.approved.value}',
        },
      },
      {
        id: 'call',
        type: 'http_request',
        config: {
          method: 'POST',
          url: `${base}/hook/{{ document.id }}`,
          headers: { 'X-Note': 'total {{ document.fields.total.value }}' },
          body: '{"id": document.id, "doubled": steps.approve.fields.doubled}',
        },
      },
      { id: 'move', type: 'move_to_project', config: { project_id: projectB } },
      { id: 'review', type: 'mark_for_review', config: { reason: 'total {{ document.fields.total.value }} is small' } },
    ],
    edges: [
      { source: 'start', target: 'big' },
      { source: 'big', target: 'approve', when: 'true' },
      { source: 'approve', target: 'sheet' },
      { source: 'sheet', target: 'notify' },
      { source: 'notify', target: 'call' },
      { source: 'call', target: 'move' },
      { source: 'big', target: 'review', when: 'false' },
    ],
  });

  async function waitRun(runId: string) {
    return eventually(
      async () => {
        const r = body(await api('GET', `/workflows/runs/${runId}`)).data;
        return ['completed', 'failed', 'cancelled'].includes(r.status) && r;
      },
      `run ${runId} to finish`,
      20_000,
    );
  }

  async function snapshot(orgId: string) {
    const q = async (sql: string) => (await t.deps.db.query(sql, [orgId])).rows;
    return {
      documents: await q(
        `SELECT id, project_id, status, fields, metadata, classification, version, updated_at FROM documents WHERE org_id = $1 ORDER BY id`,
      ),
      exports: await q(
        `SELECT de.* FROM document_exports de JOIN sheets_exports e ON e.id = de.export_id WHERE e.org_id = $1 ORDER BY de.document_id`,
      ),
      deliveries: await q(`SELECT id, status FROM webhook_deliveries WHERE org_id = $1 ORDER BY id`),
      subscriptions: await q(`SELECT id, url, status FROM webhook_subscriptions WHERE org_id = $1 ORDER BY id`),
      // workflow.* events announce the dry run itself; nothing else may appear.
      events: await q(`SELECT id, type FROM events WHERE org_id = $1 AND type NOT LIKE 'workflow.%' ORDER BY id`),
      sheet: JSON.stringify(sheet()),
      requests: sink.requests.length,
    };
  }

  async function runEvents(runId: string) {
    const { rows } = await t.deps.db.query<{ type: string; data: Record<string, any> }>(
      `SELECT type, data FROM events WHERE data->>'runId' = $1 ORDER BY created_at, id`,
      [runId],
    );
    return rows;
  }

  beforeAll(async () => {
    sink = await startWebhookSink();
    base = new URL(sink.url).origin;
    t = await createWorkflowTestApp();
    owner = await createActor(t as unknown as TestApp);
    projectA = await createProject(t as unknown as TestApp, owner);
    projectB = await createProject(t as unknown as TestApp, owner);
    t.google.spreadsheets.create('book', ['Approved']);
    const conn = body(
      await api('POST', '/integrations/sheets/connections', {
        name: 'SA',
        service_account_key: serviceAccountKey(t.google),
      }),
    ).data;
    exportId = body(
      await api('POST', '/integrations/sheets/exports', {
        project_id: projectA,
        connection_id: conn.id,
        spreadsheet_id: 'book',
        sheet_name: 'Approved',
        trigger: 'manual',
        columns: [
          { header: 'Document', field: 'document.id' },
          { header: 'Total', field: 'fields.total' },
          { header: 'Approved', field: 'fields.approved' },
        ],
      }),
    ).data.id;
    const res = await api('POST', '/workflows', {
      name: 'Approve big invoices',
      ...graph(),
      variables: { threshold: 50 },
    });
    expect(res.statusCode, res.body).toBe(201);
    workflowId = body(res).data.id;
    secret = body(res).data.signing_secret;
    expect(secret).toMatch(/^whsec_/);
    expect(body(await api('GET', `/workflows/${workflowId}`)).data.signing_secret).toBeUndefined();
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('dry_run computes every step and changes nothing', async () => {
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: projectA }, 1);
    const before = await snapshot(owner.orgId);
    const res = await api('POST', `/workflows/${workflowId}/run`, { mode: 'dry_run', input: { document_id: doc.id } });
    expect(res.statusCode, res.body).toBe(202);
    const run = await waitRun(body(res).data.id);
    expect(run.status, JSON.stringify(run.error)).toBe('completed');
    expect(run.mode).toBe('dry_run');
    const steps = Object.fromEntries(run.steps.map((s: any) => [s.node_id, s]));
    expect(steps.big.output).toEqual({ result: true });
    expect(steps.approve.output.fields).toEqual({ approved: true, doubled: 200 });
    // Text cells carry the apostrophe that keeps Sheets from reading them as formulas.
    expect(steps.sheet.output).toMatchObject({
      would_append: true,
      row: [`'${doc.id}`, 100, true],
      header: ["'Document", "'Total", "'Approved"],
    });
    expect(steps.notify.output.would_deliver).toMatchObject({
      url: `${base}/events`,
      event: 'invoice.approved',
      data: { doc: doc.id, approved: true },
    });
    expect(steps.call.output.would_send).toMatchObject({
      method: 'POST',
      url: `${base}/hook/${doc.id}`,
      headers: { 'X-Note': 'total 100' },
      body: { id: doc.id, doubled: 200 },
    });
    expect(steps.move.output).toMatchObject({ from_project_id: projectA, to_project_id: projectB });
    expect(steps.review.status).toBe('skipped');
    // Give any stray side effect (a flush, a delivery, a request) time to show up.
    await new Promise((r) => setTimeout(r, 500));
    expect(await snapshot(owner.orgId)).toEqual(before);
    const events = await runEvents(run.id);
    expect(events.map((e) => e.type)).toEqual([
      'workflow.started',
      ...Array(7).fill('workflow.step_completed'),
      'workflow.completed',
    ]);
    expect(
      events.every(
        (e) => e.data.mode === 'dry_run' && e.data.documentId === doc.id && e.data.workflowId === workflowId,
      ),
    ).toBe(true);
  });

  it('execute does what the dry run described, once', async () => {
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: projectA }, 1);
    const res = await api('POST', `/workflows/${workflowId}/run`, { input: { document_id: doc.id } });
    expect(res.statusCode, res.body).toBe(202);
    const run = await waitRun(body(res).data.id);
    expect(run.status, JSON.stringify(run.error)).toBe('completed');
    expect(run.steps.map((s: any) => [s.node_id, s.status])).toEqual([
      ['start', 'completed'],
      ['big', 'completed'],
      ['approve', 'completed'],
      ['sheet', 'completed'],
      ['notify', 'completed'],
      ['call', 'completed'],
      ['move', 'completed'],
      ['review', 'skipped'],
    ]);
    const d = body(await api('GET', `/documents/${doc.id}`)).data;
    expect(d.project_id).toBe(projectB);
    expect(d.fields.approved).toEqual({ value: true, confidence: 1, method: 'workflow' });
    expect(d.fields.doubled.value).toBe(200);
    expect(d.metadata.reviewer).toBe('workflow');
    const rows = await eventually(() => sheet().length === 2 && sheet(), 'the appended row');
    expect(rows[1].slice(0, 3)).toEqual([doc.id, 100, true]);

    await sink.waitFor(2, 10_000);
    const hook = sink.requests.find((r) => r.path === `/hook/${doc.id}`)!;
    expect(hook.headers['idempotency-key']).toBe(`${run.id}.call`);
    expect(hook.headers['x-note']).toBe('total 100');
    expect(JSON.parse(hook.body)).toEqual({ id: doc.id, doubled: 200 });
    expect(verifyWebhookSignature(hook.body, hook.headers as Record<string, string>, secret)).toBe(true);
    const call = run.steps.find((s: any) => s.node_id === 'call');
    expect(call.output.response.status).toBe(200);
    const delivered = sink.requests.find((r) => r.path === '/events')!;
    const payload = JSON.parse(delivered.body);
    expect(payload).toMatchObject({ type: 'invoice.approved', data: { doc: doc.id, approved: true } });
    expect(verifyWebhookSignature(delivered.body, delivered.headers as Record<string, string>, secret)).toBe(true);
    // The workflow's delivery subscription stays out of the /webhooks API.
    expect(body(await api('GET', '/webhooks')).data).toEqual([]);

    const events = await runEvents(run.id);
    expect(events.map((e) => e.type)).toEqual([
      'workflow.started',
      ...Array(7).fill('workflow.step_completed'),
      'workflow.completed',
    ]);
    expect(events.slice(1, -1).map((e) => e.data.step.id)).toEqual([
      'start',
      'big',
      'approve',
      'sheet',
      'notify',
      'call',
      'move',
    ]);
    expect(events.every((e) => e.data.mode === 'execute' && e.data.runId === run.id)).toBe(true);
  });

  it('takes the false branch, and a failing step fails the run with the node named', async () => {
    const [small] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: projectA }, 1, () => ({
      fields: { total: { value: 10, confidence: 1, method: 'x' } },
    }));
    const res = await api('POST', `/workflows/${workflowId}/run`, { input: { document_id: small.id } });
    const run = await waitRun(body(res).data.id);
    expect(run.status).toBe('completed');
    expect(run.steps.filter((s: any) => s.status === 'completed').map((s: any) => s.node_id)).toEqual([
      'start',
      'big',
      'review',
    ]);
    const d = body(await api('GET', `/documents/${small.id}`)).data;
    expect(d.status).toBe('needs_review');
    expect(d.metadata.review_reason).toBe('total 10 is small');

    // Variables from the run request override the defaults: the small one now counts as big, and
    // the move fails because its target project is archived.
    const gone = await api('POST', `/projects/${projectB}/archive`);
    expect(gone.statusCode, gone.body).toBe(200);
    const res2 = await api('POST', `/workflows/${workflowId}/run`, {
      input: { document_id: small.id },
      variables: { threshold: 5 },
    });
    const run2 = await waitRun(body(res2).data.id);
    expect(run2.status).toBe('failed');
    expect(run2.error).toMatchObject({ code: 'PROJECT_ARCHIVED', node_id: 'move' });
    expect(run2.variables.threshold).toBe(5);
    const events = await runEvents(run2.id);
    expect(events.at(-1)).toMatchObject({ type: 'workflow.failed', data: { status: 'failed', runId: run2.id } });
  });
});
