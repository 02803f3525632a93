// Regression suite of the workflow attacks (issue: workflows must never take the service down).
// Each reproduction runs against the real app, engine and workers in this process: had an
// expression taken the process down, this test file would die with it. After each, a health probe
// must answer and the run must end with a clear step error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor } from '../helpers/app.js';
import { eventually } from '../helpers/sheets-harness.js';
import { createWorkflowTestApp, type WorkflowStack } from '../helpers/workflows-harness.js';
import { PAUSE_AFTER } from '../../src/modules/workflows/schedules.js';

describe('workflow expressions cannot take the service down', () => {
  let t: WorkflowStack;
  let owner: Actor;
  let other: Actor;
  const api = (who: Actor, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: who.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const manual = { id: 'start', type: 'trigger.manual', config: {} };
  const create = async (who: Actor, name: string, nodes: unknown[], edges: unknown[], extra: object = {}) => {
    const res = await api(who, 'POST', '/workflows', { name, nodes, edges, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return body(res).data.id as string;
  };
  const start = async (who: Actor, id: string, mode: 'execute' | 'dry_run' = 'dry_run') => {
    const res = await api(who, 'POST', `/workflows/${id}/run`, { mode });
    expect(res.statusCode, res.body).toBe(202);
    return body(res).data.id as string;
  };
  const finished = (who: Actor, runId: string, timeoutMs = 60_000) =>
    eventually(
      async () => {
        const r = body(await api(who, 'GET', `/workflows/runs/${runId}`)).data;
        return !['queued', 'running'].includes(r.status) && r;
      },
      `run ${runId} to end`,
      timeoutMs,
    );
  const healthy = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
  };
  const condition = (expression: string) => [manual, { id: 'check', type: 'condition', config: { expression } }];
  const toCheck = [{ source: 'start', target: 'check' }];
  /** `n` conditions in a row, each stuck in one built-in until the evaluator's deadline kills it. */
  const slowChain = (n: number) => {
    const nodes = Array.from({ length: n }, (_, i) => ({
      id: `c${i}`,
      type: 'condition',
      on_error: 'continue',
      config: { expression: '$distinct([1..100000]) = 1' },
    }));
    const edges = nodes.map((c, i) => ({
      source: i === 0 ? 'start' : `c${i - 1}`,
      target: c.id,
      ...(i === 0 ? {} : { when: 'error' }),
    }));
    return { nodes, edges };
  };

  beforeAll(async () => {
    t = await createWorkflowTestApp({
      env: { WORKFLOW_EXPRESSION_BUDGET_MS: '1500', WORKFLOW_MAX_RUNNING_PER_ORG: '4' },
      // A small evaluator heap, so that the crash reproduction below is quick to reach.
      module: {
        // Runs give up their worker slot after 2 s (default 10 s), so the slicing is exercised here.
        sliceMs: 2000,
        evaluator: { timeoutMs: 2000, processes: 2, maxHeapMb: 48, maxMemoryMb: 512 },
      },
    });
    owner = await createActor(t, { role: 'owner', orgName: 'Attacker' });
    other = await createActor(t, { role: 'owner', orgName: 'Bystander' });
  });
  afterAll(() => t?.close());

  it('1a. $pad / doubling bombs fail their step with a clear error; the process and /health stay up', async () => {
    const doubling = `($s := "${'x'.repeat(16)}"; ${'$s := $s & $s; '.repeat(23)} $length($s) > 0)`;
    for (const expr of ['$length($pad("", 100000000, "x")) > 0', '$pad("", 1e8, "x") = ""', doubling]) {
      const id = await create(owner, 'Bomb', condition(expr), toCheck);
      const run = await finished(owner, await start(owner, id));
      expect(run.status, expr).toBe('failed');
      expect(run.error.code, expr).toBe('EXPRESSION_LIMIT');
      expect(run.error.message, expr).toMatch(/at most 1000000/);
      await healthy();
    }
  });

  it('1b. an expression that crashes its evaluator fails its step for good after 2 crashes; the run is not retried', async () => {
    const before = t.deps.workflows.evaluator.processesStarted;
    // Every value stays under the bounds; together they are far more than the evaluator's heap.
    const hog = '$count([1..200].$uppercase($pad("", 900000, $string($)))) > 0';
    const id = await create(owner, 'Crash', condition(hog), toCheck);
    const run = await finished(owner, await start(owner, id));
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('EXPRESSION_CRASHED');
    expect(run.error.message).toMatch(
      /more memory than its limit.*crashed its evaluator 2 times and is not tried again/,
    );
    expect(t.deps.workflows.evaluator.processesStarted).toBeGreaterThan(before);
    const step = run.steps.find((s: { node_id: string }) => s.node_id === 'check');
    expect(step.status).toBe('failed');
    await healthy();
    // The evaluator still serves everyone else.
    const ok = await create(other, 'Fine', condition('$sum([1, 2]) = 3'), toCheck);
    expect((await finished(other, await start(other, ok))).status).toBe('completed');
  });

  it('1c. a schedule whose runs keep crashing is paused, with the reason in the API', async () => {
    const id = await create(
      owner,
      'Nightly bomb',
      [
        { id: 'start', type: 'trigger.schedule', config: { cron: '0 3 * * *', timezone: 'UTC' } },
        ...slowChain(5).nodes,
      ],
      slowChain(5).edges,
      { status: 'active' },
    );
    const sched = t.deps.workflows.schedules;
    const tick = (n: number) =>
      sched.tick({
        id: `repeat:wfsched-${id}:${Date.UTC(2026, 0, n, 3)}`,
        timestamp: 0,
        delay: 0,
        data: { kind: 'tick', workflowId: id },
      });
    for (let n = 1; n <= PAUSE_AFTER; n++) {
      const runId = await tick(n);
      expect(runId).toBeTruthy();
      const run = await finished(owner, runId!);
      expect(run.status).toBe('failed');
      expect(run.error.code).toBe('RUN_EXPRESSION_BUDGET');
    }
    // The next tick pauses the schedule instead of running it again.
    expect(await tick(PAUSE_AFTER + 1)).toBeNull();
    const w = body(await api(owner, 'GET', `/workflows/${id}`)).data;
    expect(w.status).toBe('inactive');
    expect(w.paused.reason).toMatch(/paused after 3 scheduled runs in a row failed with RUN_EXPRESSION_BUDGET/);
    const schedulers = await t.deps.workflows.producer.queue().getJobSchedulers(0, -1);
    expect(schedulers.map((s) => s.key)).not.toContain(`wfsched-${id}`);
    // Activating it again clears the reason.
    const again = await api(owner, 'PUT', `/workflows/${id}`, { status: 'active' });
    expect(again.statusCode, again.body).toBe(200);
    expect(body(again).data.paused).toBeNull();
  });

  it('2. huge graphs are refused at save by their expression total; validation leaves /health answering', async () => {
    const path = Array.from({ length: 1300 }, (_, i) => `a${i % 10}`)
      .join('.')
      .slice(0, 3900);
    const map = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, path]));
    const nodes = [
      manual,
      { id: 'a', type: 'set_fields', config: { fields: map, metadata: map } },
      { id: 'b', type: 'set_fields', config: { fields: map, metadata: map } },
    ];
    const edges = [
      { source: 'start', target: 'a' },
      { source: 'a', target: 'b' },
    ];
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => api(owner, 'POST', '/workflows/validate', { nodes, edges })),
      t.app.inject({ method: 'GET', url: '/api/v1/health' }),
    ]);
    expect(results[4].statusCode).toBe(200);
    for (const r of results.slice(0, 4)) {
      const issues = body(r).data.issues as { field: string; message: string }[];
      expect(issues.some((i) => i.field === 'nodes' && /at most 65536/.test(i.message))).toBe(true);
    }
    const res = await api(owner, 'POST', '/workflows', { name: 'Huge', nodes, edges });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/at most 65536/);
    // Under the bound, long expressions are checked in an evaluator process and their problems named.
    const long = await api(owner, 'POST', '/workflows/validate', {
      nodes: [manual, { id: 'a', type: 'set_fields', config: { fields: { x: `${path} +` } } }],
      edges: [{ source: 'start', target: 'a' }],
    });
    expect(body(long).data.issues[0]).toMatchObject({ field: 'nodes[1].config.fields.x', node_id: 'a' });
    expect(body(long).data.issues[0].message).toMatch(/not a valid JSONata expression/);
  });

  it("3. one tenant's slow expressions neither starve another tenant's runs nor run past their budget", async () => {
    const { nodes, edges } = slowChain(60);
    const hog = await create(owner, 'Hog', [manual, ...nodes], edges);
    // Six runs: more than the cap of four, so some must wait for a slot.
    const hogRuns = await Promise.all(Array.from({ length: 6 }, () => start(owner, hog, 'execute')));
    const trivial = await create(other, 'Trivial', condition('1 = 1'), toCheck);
    const mine = await finished(other, await start(other, trivial, 'execute'), 120_000);
    expect(mine.status).toBe('completed');
    // Each hog run stops once its expression budget is spent, long before its 60 conditions ran.
    const ends: number[] = [];
    for (const r of hogRuns) {
      const run = await finished(owner, r, 180_000);
      expect(run.status).toBe('failed');
      expect(run.error.code).toBe('RUN_EXPRESSION_BUDGET');
      expect(run.steps.length).toBeLessThan(30);
      ends.push(Date.parse(run.finished_at));
    }
    // The other tenant's run did not wait for the hog's runs to end.
    expect(Date.parse(mine.finished_at)).toBeLessThan(Math.max(...ends));
    // At most WORKFLOW_MAX_RUNNING_PER_ORG (4) of the hog's runs ran at once.
    const spans = await Promise.all(
      hogRuns.map(async (r) => {
        const d = body(await api(owner, 'GET', `/workflows/runs/${r}`)).data;
        return [Date.parse(d.started_at), Date.parse(d.finished_at)] as const;
      }),
    );
    const overlap = Math.max(...spans.map(([s]) => spans.filter(([a, b]) => a <= s && s < b).length));
    expect(overlap).toBeLessThanOrEqual(4);
    await healthy();
  });
});
