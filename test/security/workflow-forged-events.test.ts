// Issue 22, item 5: send_webhook_event with a platform event type (document.deleted,
// report.completed, webhook.test, workflow.completed) was listed in GET /events exactly like a
// real one. The platform's namespaces are refused on save (400 naming the rule), a workflow saved
// before the rule fails the step instead of sending, and every custom event names its workflow,
// run and node in `source`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { createProject } from '../helpers/pipeline.js';
import { eventually, insertExtractedDocuments } from '../helpers/sheets-harness.js';
import { startWebhookSink, type WebhookSink } from '../helpers/webhook-sink.js';
import { createWorkflowTestApp, type WorkflowStack } from '../helpers/workflows-harness.js';
import { PLATFORM_EVENT_NAMESPACES } from '../../src/modules/events/events.types.js';

describe.each(dbKinds())('workflows cannot forge platform events on %s', (kind) => {
  let t: WorkflowStack;
  let owner: Actor;
  let sink: WebhookSink;
  let project: string;
  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const graph = (event?: string) => ({
    nodes: [
      { id: 'start', type: 'trigger.manual', config: {} },
      {
        id: 'send',
        type: 'send_webhook_event',
        config: { url: `${sink.url}/events`, ...(event ? { event } : {}), payload: '{"documentId": "doc_x"}' },
      },
    ],
    edges: [{ source: 'start', target: 'send' }],
  });
  async function waitRun(id: string) {
    return eventually(
      async () => {
        const r = body(await api('GET', `/workflows/runs/${id}`)).data;
        return ['completed', 'failed', 'cancelled'].includes(r.status) && r;
      },
      `run ${id}`,
      20_000,
    );
  }

  beforeAll(async () => {
    sink = await startWebhookSink();
    t = await createWorkflowTestApp({ kind });
    owner = await createActor(t as unknown as TestApp);
    project = await createProject(t as unknown as TestApp, owner);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('derives the reserved namespaces from the platform event types', () => {
    expect([...PLATFORM_EVENT_NAMESPACES].sort()).toEqual(['document', 'report', 'webhook', 'workflow']);
  });

  it('refuses platform event types on save and validate with a 400 naming the allowed namespace', async () => {
    for (const event of [
      'document.deleted',
      'report.completed',
      'webhook.test',
      'workflow.completed',
      'document.new_kind',
    ]) {
      for (const path of ['/workflows', '/workflows/validate']) {
        const res = await api('POST', path, path === '/workflows' ? { name: 'forge', ...graph(event) } : graph(event));
        const b = body(res);
        const issues = path === '/workflows' ? b.error?.details : (b.data?.issues ?? b.error?.details);
        expect(res.statusCode === 400 || b.data?.valid === false, `${path} ${event}: ${res.body}`).toBe(true);
        const issue = (issues as Array<{ field: string; message: string }>).find((i) => i.field.endsWith('.event'));
        expect(issue?.field, res.body).toBe('nodes[1].config.event');
        expect(issue?.message).toContain('workflow.custom.<name>');
      }
    }
    expect(body(await api('GET', '/workflows')).data).toHaveLength(0);
  });

  it('accepts custom names and marks the custom event with its workflow, run and node', async () => {
    for (const event of [undefined, 'workflow.custom.approved', 'invoice.approved']) {
      const res = await api('POST', '/workflows', { name: `ok ${event}`, ...graph(event) });
      expect(res.statusCode, res.body).toBe(201);
    }
    const wf = body(await api('POST', '/workflows', { name: 'send', ...graph('invoice.approved') })).data.id;
    const run = await waitRun(body(await api('POST', `/workflows/${wf}/run`, { mode: 'execute' })).data.id);
    expect(run.status, JSON.stringify(run.error)).toBe('completed');
    const events = body(await api('GET', '/events?limit=100')).data as Array<Record<string, any>>;
    const custom = events.find((e) => e.type === 'invoice.approved');
    expect(custom?.source).toEqual({ type: 'workflow', workflow_id: wf, run_id: run.id, node_id: 'send' });
    expect(body(await api('GET', `/events/${custom!.id}`)).data.source).toEqual(custom!.source);
    // The platform's own events say so.
    const platform = events.filter((e) => e.type.startsWith('workflow.'));
    expect(platform.length).toBeGreaterThan(0);
    expect(platform.every((e) => e.source === null)).toBe(true);
  });

  it('a workflow saved before the rule fails the step instead of sending the forged event', async () => {
    const wf = body(await api('POST', '/workflows', { name: 'legacy', ...graph('invoice.approved') })).data.id;
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: project }, 1);
    const nodes = graph('document.deleted').nodes;
    await t.deps.db.query(`UPDATE workflows SET nodes = $2::jsonb WHERE id = $1`, [wf, JSON.stringify(nodes)]);
    const before = sink.requests.length;
    const res = await api('POST', `/workflows/${wf}/run`, { mode: 'execute', input: { document_id: doc.id } });
    if (res.statusCode === 202) {
      const run = await waitRun(body(res).data.id);
      expect(run.status).toBe('failed');
    } else {
      expect(res.statusCode).toBe(400);
    }
    const forged = (body(await api('GET', '/events?type=document.deleted')).data as unknown[]).length;
    expect(forged).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.requests.length).toBe(before);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  });
});
