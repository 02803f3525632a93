// The /workflows API: create/list/get/update/delete with versions, validation errors naming node
// ids and JSON paths, settings and variables refused on update, /workflows/runs distinct from
// /workflows/{id}, cancel, roles (viewer reads, member writes and runs), live/test isolation and
// another organization's ids answering 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, createKey, bearer, type Actor, type TestApp } from '../../helpers/app.js';
import { createWorkflowTestApp, type WorkflowStack } from '../../helpers/workflows-harness.js';
import { NODE_TYPES } from '../../../src/modules/workflows/nodes/catalogue.js';

const simple = {
  nodes: [
    { id: 'start', type: 'trigger.manual', config: {} },
    { id: 'wait', type: 'delay', config: { seconds: 3600 } },
  ],
  edges: [{ source: 'start', target: 'wait' }],
};

describe('workflows API', () => {
  let t: WorkflowStack;
  let owner: Actor;
  let other: Actor;
  const call = (
    who: { auth: Record<string, string> },
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...who.auth, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    t = await createWorkflowTestApp();
    owner = await createActor(t as unknown as TestApp);
    other = await createActor(t as unknown as TestApp);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates, lists, reads, updates (bumping the version) and deletes', async () => {
    const res = await call(owner, 'POST', '/workflows', {
      name: 'Nightly',
      description: 'waits',
      ...simple,
      settings: { timeout_seconds: 60 },
      variables: { a: 1 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const w = body(res).data;
    expect(w).toMatchObject({
      name: 'Nightly',
      status: 'draft',
      version: 1,
      trigger: { type: 'manual' },
      settings: { timeout_seconds: 60, max_concurrent_runs: 10, on_error: 'stop' },
      variables: { a: 1 },
    });
    const list = body(await call(owner, 'GET', '/workflows?search=night&per_page=5'));
    expect(list.data.map((x: any) => x.id)).toEqual([w.id]);
    expect(list.pagination).toMatchObject({ page: 1, per_page: 5, total: 1, total_pages: 1 });
    const up = await call(owner, 'PUT', `/workflows/${w.id}`, { name: 'Nightly 2', status: 'active' });
    expect(up.statusCode, up.body).toBe(200);
    expect(body(up).data).toMatchObject({ name: 'Nightly 2', status: 'active', version: 2 });
    // An empty update (`{}` or no body) changes nothing, like every other update: 200, same version.
    for (const empty of [{}, undefined]) {
      const same = await call(owner, 'PUT', `/workflows/${w.id}`, empty);
      expect(same.statusCode, same.body).toBe(200);
      expect(body(same).data).toMatchObject({ name: 'Nightly 2', status: 'active', version: 2 });
    }
    expect(body(await call(owner, 'GET', '/workflows?status=draft')).data).toEqual([]);
    for (const field of ['settings', 'variables']) {
      const bad = await call(owner, 'PUT', `/workflows/${w.id}`, { [field]: {} });
      expect(bad.statusCode).toBe(400);
      expect(body(bad).error!.details).toEqual([
        expect.objectContaining({ field, message: 'is not an accepted field' }),
      ]);
    }
    expect((await call(owner, 'DELETE', `/workflows/${w.id}`)).statusCode).toBe(200);
    expect((await call(owner, 'GET', `/workflows/${w.id}`)).statusCode).toBe(404);
  });

  it('answers 400 naming the node id and JSON path of every problem; validate checks without saving', async () => {
    const graph = {
      nodes: [
        { id: 'start', type: 'trigger.manual', config: {} },
        { id: 'check', type: 'condition', config: { expression: 'total >' } },
        { id: 'move', type: 'move_to_project', config: { project_id: 'prj_nope' } },
      ],
      edges: [
        { source: 'start', target: 'check' },
        { source: 'check', target: 'move', when: 'true' },
        { source: 'move', target: 'ghost' },
      ],
    };
    const res = await call(owner, 'POST', '/workflows', { name: 'Broken', ...graph });
    expect(res.statusCode).toBe(400);
    const details = body(res).error!.details;
    expect(details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'nodes[1].config.expression', node_id: 'check' }),
        expect.objectContaining({ field: 'edges[2].target', node_id: 'ghost' }),
      ]),
    );
    expect(body(await call(owner, 'GET', '/workflows')).data.filter((w: any) => w.name === 'Broken')).toEqual([]);
    // Structure fixed, the project reference is checked against the organization.
    const v = body(
      await call(owner, 'POST', '/workflows/validate', {
        nodes: graph.nodes.map((n) => (n.id === 'check' ? { ...n, config: { expression: 'true' } } : n)),
        edges: graph.edges.slice(0, 2),
      }),
    );
    expect(v.data).toEqual({
      valid: false,
      issues: [
        {
          field: 'nodes[2].config.project_id',
          node_id: 'move',
          message: expect.stringMatching(/refers to no project/),
        },
      ],
    });
    const ok = body(await call(owner, 'POST', '/workflows/validate', simple));
    expect(ok.data).toEqual({ valid: true, issues: [] });
    // A draft may be partial; activating needs exactly one trigger.
    const draft = body(await call(owner, 'POST', '/workflows', { name: 'Partial', nodes: [simple.nodes[1]] })).data;
    const act = await call(owner, 'PUT', `/workflows/${draft.id}`, { status: 'active' });
    expect(act.statusCode).toBe(400);
    expect(body(act).error!.message).toMatch(/cannot be activated/);
    const run = await call(owner, 'POST', `/workflows/${draft.id}/run`, {});
    expect(run.statusCode).toBe(400);
  });

  it('lists runs at /workflows/runs, shows one with its steps, and cancels it (409 once ended)', async () => {
    const w = body(await call(owner, 'POST', '/workflows', { name: 'Waiter', ...simple })).data;
    const started = await call(owner, 'POST', `/workflows/${w.id}/run`);
    expect(started.statusCode, started.body).toBe(202);
    const runId = body(started).data.id;
    expect(runId).toMatch(/^run_/);
    // The delay parks the run: it is running with the delay step waiting.
    let run: any;
    for (let i = 0; i < 200; i++) {
      run = body(await call(owner, 'GET', `/workflows/runs/${runId}`)).data;
      if (run.steps.some((s: any) => s.node_id === 'wait' && s.status === 'waiting')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(run).toMatchObject({
      status: 'running',
      workflow_id: w.id,
      workflow_version: 1,
      mode: 'execute',
      trigger: { type: 'manual', user_id: owner.userId },
    });
    expect(run.steps.map((s: any) => [s.node_id, s.status])).toEqual([
      ['start', 'completed'],
      ['wait', 'waiting'],
    ]);
    const runs = body(await call(owner, 'GET', `/workflows/runs?workflow_id=${w.id}`));
    expect(runs.data.map((r: any) => r.id)).toEqual([runId]);
    expect(runs.data[0].step_counts).toEqual({ completed: 1, waiting: 1 });
    expect(
      body(await call(owner, 'GET', '/workflows/runs?status=completed')).data.find((r: any) => r.id === runId),
    ).toBeUndefined();
    const c = await call(owner, 'POST', `/workflows/runs/${runId}/cancel`);
    expect(c.statusCode, c.body).toBe(200);
    expect(body(c).data).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED' } });
    expect((await call(owner, 'POST', `/workflows/runs/${runId}/cancel`)).statusCode).toBe(409);
    const { rows } = await t.deps.db.query<{ type: string; data: any }>(
      `SELECT type, data FROM events WHERE data->>'runId' = $1 ORDER BY created_at, id`,
      [runId],
    );
    expect(rows.map((r) => r.type)).toEqual(['workflow.started', 'workflow.step_completed', 'workflow.failed']);
    expect(rows[2].data.status).toBe('cancelled');
  });

  it('viewers read, members write and run; API keys inherit that', async () => {
    const member = await createActor(t as unknown as TestApp, { role: 'member' });
    const w = body(await call(owner, 'POST', '/workflows', { name: 'Shared', ...simple })).data;
    const viewer = await createActor(t as unknown as TestApp, { role: 'viewer' });
    const own = await t.deps.workflows.service.create(
      { orgId: viewer.orgId, environment: 'live' },
      { name: 'Viewer org', ...simple },
      null,
    );
    expect((await call(viewer, 'GET', `/workflows/${own.id}`)).statusCode).toBe(200);
    expect((await call(viewer, 'GET', '/workflows/runs')).statusCode).toBe(200);
    expect((await call(viewer, 'POST', `/workflows/${own.id}/run`)).statusCode).toBe(403);
    expect((await call(viewer, 'POST', '/workflows', { name: 'x' })).statusCode).toBe(403);
    expect((await call(viewer, 'PUT', `/workflows/${own.id}`, { name: 'y' })).statusCode).toBe(403);
    expect((await call(member, 'POST', '/workflows', { name: 'Member made' })).statusCode).toBe(201);
    // An API key limited to running workflows reaches the run endpoint and nothing else.
    const key = await createKey(t as unknown as TestApp, owner, { allowed_endpoints: ['POST /workflows/*/run'] });
    const k = { auth: bearer(key.key) };
    expect((await call(k, 'POST', `/workflows/${w.id}/run`, { mode: 'dry_run' })).statusCode).toBe(202);
    expect((await call(k, 'GET', `/workflows/${w.id}`)).statusCode).toBe(403);
  });

  it("another organization's workflows and runs answer 404, and test mode sees only test workflows", async () => {
    const w = body(await call(owner, 'POST', '/workflows', { name: 'Private', ...simple })).data;
    const runId = body(await call(owner, 'POST', `/workflows/${w.id}/run`, { mode: 'dry_run' })).data.id;
    for (const [method, url] of [
      ['GET', `/workflows/${w.id}`],
      ['PUT', `/workflows/${w.id}`],
      ['DELETE', `/workflows/${w.id}`],
      ['POST', `/workflows/${w.id}/run`],
      ['GET', `/workflows/runs/${runId}`],
      ['POST', `/workflows/runs/${runId}/cancel`],
    ] as const) {
      const res = await call(other, method, url, method === 'PUT' ? { name: 'stolen' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(other, 'PUT', `/workflows/${w.id}`, {})).statusCode).toBe(404);
    expect(body(await call(other, 'GET', '/workflows')).data).toEqual([]);
    expect(body(await call(other, 'GET', '/workflows/runs')).data).toEqual([]);
    const test = { 'x-environment': 'test' };
    expect((await call(owner, 'GET', `/workflows/${w.id}`, undefined, test)).statusCode).toBe(404);
    expect(body(await call(owner, 'GET', '/workflows/runs', undefined, test)).data).toEqual([]);
    const tw = body(await call(owner, 'POST', '/workflows', { name: 'Test one', ...simple }, test)).data;
    expect(body(await call(owner, 'GET', '/workflows', undefined, test)).data.map((x: any) => x.id)).toEqual([tw.id]);
    expect(body(await call(owner, 'GET', '/workflows')).data.map((x: any) => x.id)).not.toContain(tw.id);
  });

  it('serves the node catalogue to every role and mode: each type once, with its fields, branches and help', async () => {
    const viewer = await createActor(t as unknown as TestApp, { role: 'viewer' });
    const res = await call(viewer, 'GET', '/workflows/node-types');
    expect(res.statusCode, res.body).toBe(200);
    const types = body(res).data as any[];
    expect(types.map((x) => x.type).sort()).toEqual([...NODE_TYPES].sort());
    for (const x of types) {
      expect(x, x.type).toMatchObject({
        label: expect.any(String),
        kind: expect.stringMatching(/^(trigger|action)$/),
        category: expect.any(String),
        category_label: expect.any(String),
        description: expect.any(String),
        inputs: x.kind === 'trigger' ? 0 : 1,
        branches: expect.any(Array),
        side_effects: expect.any(Boolean),
        initial_config: expect.any(Object),
        config_schema: expect.objectContaining({ type: 'object' }),
      });
      for (const f of x.fields)
        expect(f, `${x.type} ${f.path}`).toMatchObject({
          path: expect.any(String),
          label: expect.any(String),
          kind: expect.any(String),
          type: expect.any(String),
          required: expect.any(Boolean),
        });
    }
    const byType = new Map(types.map((x) => [x.type, x]));
    expect(byType.get('condition')).toMatchObject({ branches: ['true', 'false'], category: 'flow' });
    expect(byType.get('send_webhook_event').fields).toEqual([
      { path: 'url', label: 'URL', kind: 'template', type: 'string', required: true, help: expect.any(String) },
      { path: 'event', label: 'Event name', kind: 'text', type: 'string', required: false, default: 'workflow.event' },
      {
        path: 'payload',
        label: 'Payload',
        kind: 'expression',
        type: 'string',
        required: false,
        help: expect.any(String),
      },
    ]);
    // The same catalogue in test mode, for an API key and for another organization.
    const test = await call(owner, 'GET', '/workflows/node-types', undefined, { 'x-environment': 'test' });
    expect(test.statusCode).toBe(200);
    expect(body(test).data).toEqual(types);
    expect(body(await call(other, 'GET', '/workflows/node-types')).data).toEqual(types);
    const key = await createKey(t as unknown as TestApp, owner);
    expect((await call({ auth: bearer(key.key) }, 'GET', '/workflows/node-types')).statusCode).toBe(200);
    const anonymous = await call({ auth: {} }, 'GET', '/workflows/node-types');
    expect(anonymous.statusCode).toBe(401);
    expect(body(anonymous).error!.code).toBe('UNAUTHORIZED');
  });

  it('documents every route in the OpenAPI document with its real success status and error responses', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const op = (path: string, method: string) => doc.paths[`/api/v1${path}`]?.[method];
    const expected: [string, string, string][] = [
      ['/workflows', 'get', '200'],
      ['/workflows', 'post', '201'],
      ['/workflows/validate', 'post', '200'],
      ['/workflows/runs', 'get', '200'],
      ['/workflows/runs/{runId}', 'get', '200'],
      ['/workflows/runs/{runId}/cancel', 'post', '200'],
      ['/workflows/{id}', 'get', '200'],
      ['/workflows/{id}', 'put', '200'],
      ['/workflows/{id}', 'delete', '200'],
      ['/workflows/{id}/run', 'post', '202'],
    ];
    for (const [path, method, status] of expected) {
      const o = op(path, method);
      expect(o, `${method} ${path}`).toBeDefined();
      expect(Object.keys(o.responses)).toEqual(expect.arrayContaining([status, '400', '401', '403', '429']));
    }
    // Takes no input: no 400.
    expect(Object.keys(op('/workflows/node-types', 'get').responses).sort()).toEqual(['200', '401', '403', '429']);
    expect(Object.keys(op('/workflows/runs/{runId}/cancel', 'post').responses)).toEqual(
      expect.arrayContaining(['404', '409']),
    );
  });
});
