// Durability: a worker process SIGKILLed in the middle of a run (while its http_request step
// waits for an answer) leaves the run to another worker, which resumes at the first unfinished
// step. Side effects are counted: one Sheets row, one webhook delivery, fields written once, each
// step announced once; the interrupted request is sent again with the same request id.
// Several processes share one database only on PostgreSQL. PGlite is one process's database, so
// there the killed process is the only one holding it (as a crashed `docpipe start` would be):
// the test hands it the data directory, and reopens it after the kill.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../../helpers/app.js';
import { databaseUrl } from '../../helpers/db.js';
import { createProject } from '../../helpers/pipeline.js';
import { eventually, insertExtractedDocuments, serviceAccountKey } from '../../helpers/sheets-harness.js';
import { startWebhookSink, type WebhookSink } from '../../helpers/webhook-sink.js';
import { createDb } from '../../../src/db/client.js';
import { pgliteDataDirAt } from '../../helpers/webhooks-harness.js';
import { createWorkflowStack, createWorkflowTestApp, type WorkflowStack } from '../../helpers/workflows-harness.js';

const ENTRY = fileURLToPath(new URL('../../helpers/run-ts.mjs', import.meta.url));
const MODULE = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));
const pg = databaseUrl();

/** What the crash scenario needs, whichever database holds the run. */
interface CrashContext {
  /** The app (and, for starting workers, the stack) answering now. */
  stack: WorkflowStack;
  api(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  owner: Actor;
  sink: WebhookSink;
  /** The fake Google API the Sheets export writes to. */
  google: WorkflowStack['google'];
}

const apiOf =
  (stack: WorkflowStack, owner: Actor): CrashContext['api'] =>
  (method, url, payload) =>
    stack.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

/**
 * A document and a workflow whose steps each leave a countable effect (a field, a Sheets row, a
 * webhook delivery), then an http_request the test holds open while it kills the worker.
 */
async function createCrashWorkflow(c: CrashContext) {
  const base = new URL(c.sink.url).origin;
  const projectId = await createProject(c.stack as unknown as TestApp, c.owner);
  c.google.spreadsheets.create('crash', ['Rows']);
  const conn = body(
    await c.api('POST', '/integrations/sheets/connections', {
      name: 'SA',
      service_account_key: serviceAccountKey(c.google),
    }),
  ).data;
  const exportId = body(
    await c.api('POST', '/integrations/sheets/exports', {
      project_id: projectId,
      connection_id: conn.id,
      spreadsheet_id: 'crash',
      sheet_name: 'Rows',
      trigger: 'manual',
      columns: [{ header: 'Doc', field: 'document.id' }],
    }),
  ).data.id;
  const [doc] = await insertExtractedDocuments(c.stack.deps.db, { orgId: c.owner.orgId, projectId }, 1);
  const w = body(
    await c.api('POST', '/workflows', {
      name: 'Crash me',
      nodes: [
        { id: 'start', type: 'trigger.manual', config: {} },
        { id: 'mark', type: 'set_fields', config: { fields: { stage: '"one"' } } },
        { id: 'sheet', type: 'export_sheets', config: { export_id: exportId } },
        { id: 'notify', type: 'send_webhook_event', config: { url: `${base}/events` } },
        { id: 'call', type: 'http_request', config: { url: `${base}/slow`, body: '{"doc": document.id}' } },
        { id: 'after', type: 'set_fields', config: { fields: { stage: '"two"' } } },
      ],
      edges: [
        { source: 'start', target: 'mark' },
        { source: 'mark', target: 'sheet' },
        { source: 'sheet', target: 'notify' },
        { source: 'notify', target: 'call' },
        { source: 'call', target: 'after' },
      ],
    }),
  ).data;
  return { workflowId: w.id as string, doc };
}

/** At the kill: the steps before the request are committed, the request step is in flight. */
async function expectInterrupted(c: CrashContext, runId: string) {
  const mid = body(await c.api('GET', `/workflows/runs/${runId}`)).data;
  expect(mid.status).toBe('running');
  expect(mid.steps.map((s: any) => [s.node_id, s.status, s.attempts])).toEqual([
    ['start', 'completed', 1],
    ['mark', 'completed', 1],
    ['sheet', 'completed', 1],
    ['notify', 'completed', 1],
    ['call', 'running', 1],
  ]);
}

/** Another worker (this process) takes the run over once the dead one's lock expires; every effect once. */
async function expectResumedOnce(c: CrashContext, runId: string, doc: { id: string }) {
  c.sink.setDelay(0);
  await c.stack.startWorkers();
  const run = await eventually(
    async () => {
      const r = body(await c.api('GET', `/workflows/runs/${runId}`)).data;
      return r.status !== 'running' && r;
    },
    'the run to finish on the second worker',
    30_000,
  );
  expect(run.status, JSON.stringify(run.error)).toBe('completed');
  expect(run.steps.map((s: any) => [s.node_id, s.status, s.attempts])).toEqual([
    ['start', 'completed', 1],
    ['mark', 'completed', 1],
    ['sheet', 'completed', 1],
    ['notify', 'completed', 1],
    ['call', 'completed', 2],
    ['after', 'completed', 1],
  ]);

  // Effects, counted.
  const rows = await eventually(
    () =>
      c.google.spreadsheets.getValues('crash', 'Rows').length >= 2 && c.google.spreadsheets.getValues('crash', 'Rows'),
    'the sheet row',
  );
  await c.sink.waitFor(3, 15_000);
  await new Promise((r) => setTimeout(r, 500));
  expect(c.google.spreadsheets.getValues('crash', 'Rows').length).toBe(2);
  expect(rows[1][0]).toBe(doc.id);
  const q = async (sql: string) => (await c.stack.deps.db.query<{ n: number }>(sql, [doc.id])).rows[0].n;
  expect(await q(`SELECT count(*) AS n FROM document_exports WHERE document_id = $1`)).toBe(1);
  expect(
    await q(
      `SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE s.owner_workflow_id IS NOT NULL AND $1::text IS NOT NULL`,
    ),
  ).toBe(1);
  const slow = c.sink.requests.filter((r) => r.path === '/slow');
  expect(slow).toHaveLength(2);
  expect(new Set(slow.map((r) => r.headers['idempotency-key']))).toEqual(new Set([`${runId}.call`]));
  expect(c.sink.requests.filter((r) => r.path === '/events')).toHaveLength(1);
  const d = body(await c.api('GET', `/documents/${doc.id}`)).data;
  expect(d.fields.stage.value).toBe('two');
  const { rows: events } = await c.stack.deps.db.query<{ type: string; data: any }>(
    `SELECT type, data FROM events WHERE data->>'runId' = $1 AND type LIKE 'workflow.%' AND type <> 'workflow.event' ORDER BY created_at, id`,
    [runId],
  );
  expect(events.map((e) => (e.type === 'workflow.step_completed' ? e.data.step.id : e.type))).toEqual([
    'workflow.started',
    'start',
    'mark',
    'sheet',
    'notify',
    'call',
    'after',
    'workflow.completed',
  ]);
}

/**
 * Waits for the forked worker to be ready, starts the run (`start`), waits until the worker's
 * request is in flight, and SIGKILLs it. Returns the run id.
 */
async function killMidRun(child: ChildProcess, sink: WebhookSink, start: () => Promise<string>): Promise<string> {
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-10_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      void exited.then(() => reject(new Error(`worker exited early: ${stderr}`)));
    });
    const runId = await start();
    await Promise.race([
      sink.waitFor(1, 30_000),
      exited.then(() => {
        throw new Error(`worker exited: ${stderr}`);
      }),
    ]);
    child.kill('SIGKILL');
    await exited;
    return runId;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

describe.skipIf(!pg)('workflow run survives a SIGKILLed worker (PostgreSQL)', () => {
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

  beforeAll(async () => {
    sink = await startWebhookSink();
    t = await createWorkflowTestApp({
      kind: 'postgres',
      workers: false,
      module: { lockDurationMs: 1000, stalledIntervalMs: 300 },
    });
    owner = await createActor(t as unknown as TestApp);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('resumes at the interrupted step on another worker; every effect happens once', async () => {
    const c: CrashContext = { stack: t, api, owner, sink, google: t.google };
    const { workflowId, doc } = await createCrashWorkflow(c);
    const schema = (await t.deps.db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
    sink.setDelay(60_000); // the first request hangs until its worker is dead
    const child = fork(
      ENTRY,
      [MODULE, JSON.stringify({ env: t.env, db: { url: pg!, schema }, redisUrl: inject('redisUrl') })],
      { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
    );
    const runId = await killMidRun(
      child,
      sink,
      async () => body(await api('POST', `/workflows/${workflowId}/run`, { input: { document_id: doc.id } })).data.id,
    );
    await expectInterrupted(c, runId);
    await expectResumedOnce(c, runId, doc);
  });

  it('a run whose worker dies twice while running it is failed (RUN_CRASHED), not handed out a third time', async () => {
    // Only the forked workers take the run until both have died.
    await t.stopWorkers();
    const base = new URL(sink.url).origin;
    const w = body(
      await api('POST', '/workflows', {
        name: 'Poison',
        nodes: [
          { id: 'start', type: 'trigger.manual', config: {} },
          { id: 'call', type: 'http_request', config: { url: `${base}/poison` } },
        ],
        edges: [{ source: 'start', target: 'call' }],
      }),
    ).data;
    const schema = (await t.deps.db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0].s;
    sink.setDelay(60_000);
    const crashOnce = async (expectRequests: number, start?: () => Promise<string>) => {
      const child = fork(
        ENTRY,
        [MODULE, JSON.stringify({ env: t.env, db: { url: pg!, schema }, redisUrl: inject('redisUrl') })],
        { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] },
      );
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        await new Promise<void>((resolve) => child.once('message', () => resolve()));
        const id = start ? await start() : '';
        // This worker took the run: its request is in flight. Then it dies.
        await eventually(
          () => sink.requests.filter((r) => r.path === '/poison').length >= expectRequests,
          `request ${expectRequests}`,
          30_000,
        );
        child.kill('SIGKILL');
        await exited;
        return id;
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    };
    const runId = await crashOnce(1, async () => body(await api('POST', `/workflows/${w.id}/run`, {})).data.id);
    // The first stall is recovered: the next worker takes the run over, and dies too.
    await crashOnce(2);
    sink.setDelay(0);
    await t.startWorkers();
    // A third worker's stall check fails the job instead of handing it out; the sweeper fails the run.
    const run = await eventually(
      async () => {
        await t.deps.workflows.sweep();
        const r = body(await api('GET', `/workflows/runs/${runId}`)).data;
        return r.status !== 'running' && r;
      },
      'the poisoned run to fail',
      30_000,
    );
    expect(run.status).toBe('failed');
    expect(run.error.code).toBe('RUN_CRASHED');
    expect(run.error.message).toMatch(/stopped twice/);
    expect(sink.requests.filter((r) => r.path === '/poison')).toHaveLength(2);
  });
});

describe('workflow run survives a SIGKILLed process (PGlite, the database handed over on disk)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'docpipe-wf-crash-'));
  const pgliteDir = join(tmp, 'db');
  const closing: (() => Promise<unknown>)[] = [];
  let sink: WebhookSink;
  beforeAll(async () => {
    sink = await startWebhookSink();
    await pgliteDataDirAt(pgliteDir);
  });
  afterAll(async () => {
    for (const close of closing.reverse()) await close().catch(() => undefined);
    await sink?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it(
    'resumes at the interrupted step once the database is opened again; every effect happens once',
    { timeout: 120_000 },
    async () => {
      const redisUrl = inject('redisUrl');
      const module = { lockDurationMs: 1000, stalledIntervalMs: 300 };
      // This process sets up the workflow and starts the run (its job waits in Redis), then lets go
      // of the database for the worker process.
      const firstDb = await createDb({ pgliteDir });
      const first = await createWorkflowStack({ redisUrl, db: firstDb, kind: 'pglite', workers: false, module });
      closing.push(() => first.google.close());
      const owner = await createActor(first as unknown as TestApp);
      const c1: CrashContext = { stack: first, api: apiOf(first, owner), owner, sink, google: first.google };
      const { workflowId, doc } = await createCrashWorkflow(c1);
      const runId = body(await c1.api('POST', `/workflows/${workflowId}/run`, { input: { document_id: doc.id } })).data
        .id as string;
      await first.app.close();
      await first.deps.close();
      await firstDb.close();

      sink.setDelay(60_000); // the first request hangs until its worker is dead
      const child = fork(ENTRY, [MODULE, JSON.stringify({ env: first.env, db: { pgliteDir }, redisUrl })], {
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      // Starting a worker process from TypeScript takes a while on a loaded machine: hence the timeout.
      await killMidRun(child, sink, async () => runId);

      // The same service again (same secrets, Redis prefix and Google), on the directory the dead
      // process left.
      const secondDb = await createDb({ pgliteDir });
      closing.push(() => secondDb.close());
      const second = await createWorkflowStack({
        redisUrl,
        db: secondDb,
        kind: 'pglite',
        env: first.env,
        workers: false,
        module,
      });
      closing.push(() => second.close());
      const c2: CrashContext = { stack: second, api: apiOf(second, owner), owner, sink, google: first.google };
      await expectInterrupted(c2, runId);
      await expectResumedOnce(c2, runId, doc);
    },
  );

  it(
    'a run whose process dies twice while running it is failed (RUN_CRASHED), not handed out a third time',
    { timeout: 150_000 },
    async () => {
      const redisUrl = inject('redisUrl');
      const module = { lockDurationMs: 1000, stalledIntervalMs: 300 };
      const dir = join(tmp, 'poison-db');
      await pgliteDataDirAt(dir);
      const firstDb = await createDb({ pgliteDir: dir });
      const first = await createWorkflowStack({ redisUrl, db: firstDb, kind: 'pglite', workers: false, module });
      closing.push(() => first.google.close());
      const owner = await createActor(first as unknown as TestApp);
      const api1 = apiOf(first, owner);
      const base = new URL(sink.url).origin;
      const w = body(
        await api1('POST', '/workflows', {
          name: 'Poison',
          nodes: [
            { id: 'start', type: 'trigger.manual', config: {} },
            { id: 'call', type: 'http_request', config: { url: `${base}/poison-lite` } },
          ],
          edges: [{ source: 'start', target: 'call' }],
        }),
      ).data;
      const runId = body(await api1('POST', `/workflows/${w.id}/run`, {})).data.id as string;
      await first.app.close();
      await first.deps.close();
      await firstDb.close();

      const poisoned = () => sink.requests.filter((r) => r.path === '/poison-lite').length;
      sink.setDelay(60_000);
      // Two processes in turn open the database, take the run (the second through BullMQ's stalled
      // check) and die with its request in flight.
      for (const expected of [1, 2]) {
        const child = fork(ENTRY, [MODULE, JSON.stringify({ env: first.env, db: { pgliteDir: dir }, redisUrl })], {
          stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        });
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        try {
          await new Promise<void>((resolve) => child.once('message', () => resolve()));
          await eventually(() => poisoned() >= expected, `request ${expected}`, 60_000);
          child.kill('SIGKILL');
          await exited;
        } finally {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        }
      }
      sink.setDelay(0);

      // The service again, with its workers: a third stall check fails the job instead of handing
      // it out, and the sweeper fails the run.
      const againDb = await createDb({ pgliteDir: dir });
      closing.push(() => againDb.close());
      const again = await createWorkflowStack({
        redisUrl,
        db: againDb,
        kind: 'pglite',
        env: first.env,
        workers: true,
        module,
      });
      closing.push(() => again.close());
      const api2 = apiOf(again, owner);
      const run = await eventually(
        async () => {
          await again.deps.workflows.sweep();
          const r = body(await api2('GET', `/workflows/runs/${runId}`)).data;
          return r.status !== 'running' && r;
        },
        'the poisoned run to fail',
        30_000,
      );
      expect(run.status).toBe('failed');
      expect(run.error.code).toBe('RUN_CRASHED');
      expect(run.error.message).toMatch(/stopped twice/);
      expect(poisoned()).toBe(2);
    },
  );
});
