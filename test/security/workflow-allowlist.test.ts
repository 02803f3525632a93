// Issue 22, "Also": http_request reused the webhook allow-list, so an internal host allowed for
// webhook POSTs became readable with GET/PUT/DELETE by every member through step output.
// Workflows now have their own WORKFLOW_ALLOWED_HOSTS (default empty): here 127.0.0.1 is allowed
// for webhooks only. A forbidden URL is refused on save (400 naming the setting), a host filled
// in by a template is refused, and a workflow saved before the rule still never reaches it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../helpers/app.js';
import { eventually } from '../helpers/sheets-harness.js';
import { startWebhookSink, type WebhookSink } from '../helpers/webhook-sink.js';
import { createWorkflowTestApp, type WorkflowStack } from '../helpers/workflows-harness.js';

describe('http_request has its own allow-list', () => {
  let t: WorkflowStack;
  let owner: Actor;
  let sink: WebhookSink;
  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const withNode = (type: string, config: Record<string, unknown>) => ({
    name: `${type} ${Math.random()}`,
    nodes: [
      { id: 'start', type: 'trigger.manual', config: {} },
      { id: 'out', type, config },
    ],
    edges: [{ source: 'start', target: 'out' }],
  });

  beforeAll(async () => {
    sink = await startWebhookSink();
    t = await createWorkflowTestApp({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WORKFLOW_ALLOWED_HOSTS: '' } });
    owner = await createActor(t as unknown as TestApp);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('refuses on save an http_request to a host only the webhook allow-list allows, naming WORKFLOW_ALLOWED_HOSTS', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'POST']) {
      const res = await api('POST', '/workflows', withNode('http_request', { method, url: `${sink.url}/secret` }));
      expect(res.statusCode, res.body).toBe(400);
      const issue = body(res).error.details.find((i: { field: string }) => i.field === 'nodes[1].config.url');
      expect(issue.message).toContain('WORKFLOW_ALLOWED_HOSTS');
    }
    for (const url of ['http://localhost:9/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/x']) {
      const res = await api('POST', '/workflows', withNode('http_request', { method: 'GET', url }));
      expect(res.statusCode, url).toBe(400);
    }
    // The same host stays fine for send_webhook_event, which is a webhook delivery.
    const hook = await api('POST', '/workflows', withNode('send_webhook_event', { url: `${sink.url}/events` }));
    expect(hook.statusCode, hook.body).toBe(201);
    // A public host is accepted; templates may fill the path and query.
    const pub = await api(
      'POST',
      '/workflows',
      withNode('http_request', { method: 'GET', url: 'https://example.com/doc/{{ input.id }}?q={{ input.q }}' }),
    );
    expect(pub.statusCode, pub.body).toBe(201);
  });

  it('refuses a host filled in by a template', async () => {
    for (const url of ['http://{{ input.host }}/x', 'https://example.com{{ input.rest }}', '{{ input.url }}']) {
      const res = await api('POST', '/workflows', withNode('http_request', { url }));
      expect(res.statusCode, url).toBe(400);
      expect(body(res).error.details[0].message).toMatch(/scheme and host/);
    }
  });

  it('a workflow saved before the rule never reaches the host (checked again when the step runs)', async () => {
    const created = await api(
      'POST',
      '/workflows',
      withNode('http_request', { method: 'GET', url: 'https://example.com/x' }),
    );
    const wf = body(created).data.id;
    const nodes = withNode('http_request', { method: 'GET', url: `${sink.url}/secret` }).nodes;
    await t.deps.db.query(`UPDATE workflows SET nodes = $2::jsonb WHERE id = $1`, [wf, JSON.stringify(nodes)]);
    const before = sink.requests.length;
    const res = await api('POST', `/workflows/${wf}/run`, { mode: 'execute' });
    if (res.statusCode === 202) {
      const id = body(res).data.id;
      const run = await eventually(
        async () => {
          const r = body(await api('GET', `/workflows/runs/${id}`)).data;
          return ['completed', 'failed', 'cancelled'].includes(r.status) && r;
        },
        `run ${id}`,
        20_000,
      );
      expect(run.status).toBe('failed');
      const step = run.steps.find((s: { node_id: string }) => s.node_id === 'out');
      expect(step.error.message).toContain('WORKFLOW_ALLOWED_HOSTS');
    } else {
      expect(res.statusCode).toBe(400);
    }
    expect(sink.requests.length).toBe(before);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  });
});
