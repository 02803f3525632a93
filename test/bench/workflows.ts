// `npm run bench -- workflows [--runs N]`: N runs (default 1000) of a 5-node workflow
// (trigger → condition → set_fields → export_sheets to the fake Google server →
// send_webhook_event to a local receiver), each on its own document, executed and then as
// dry runs; against BullMQ no-op jobs on the same Redis in the same run. Runs are created first
// (queued, with their jobs) and the clock starts when the workers start. Reports runs/s, the
// time of one step (its own work plus its commit; `duration_ms` of the step records) and the
// engine's overhead per step (a run's wall time from start to finish, divided by its steps).
//
// PGlite by default; PostgreSQL when DATABASE_URL is set. A private redis-server unless REDIS_URL.
import { Queue, Worker } from 'bullmq';
import { createDb, type Db } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { startWebhookSink } from '../helpers/webhook-sink.js';
import { createOrgAndProject, insertExtractedDocuments, serviceAccountKey } from '../helpers/sheets-harness.js';
import { createWorkflowStack } from '../helpers/workflows-harness.js';
import { benchPostgres, benchRedis, table } from './harness.js';

const WORKER_CONCURRENCY = 2; // the workflow worker runs 4× this many jobs at once (8)
const JOB_CONCURRENCY = Math.max(4, WORKER_CONCURRENCY * 4);

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0);

async function openDb(): Promise<{ db: Db; label: string; kind: 'pglite' | 'postgres'; close(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const pg = await benchPostgres();
    if (pg) {
      const db = await createDb({ url: pg.url, poolSize: 10 });
      await migrate(db);
      return { db, label: 'postgres', kind: 'postgres', close: async () => { await db.close(); await pg.drop(); } };
    }
  }
  const db = await createDb({});
  await migrate(db);
  return { db, label: 'pglite', kind: 'pglite', close: () => db.close() };
}

/** BullMQ jobs that do nothing, same concurrency: what the queue alone costs. */
async function noopJobs(redisUrl: string, n: number): Promise<number> {
  const u = new URL(redisUrl);
  const connection = { host: u.hostname, port: Number(u.port || 6379), maxRetriesPerRequest: null };
  const prefix = `bench${Date.now().toString(36)}`;
  const q = new Queue('noop', { connection, prefix });
  for (let i = 0; i < n; i += 500) {
    await q.addBulk(Array.from({ length: Math.min(500, n - i) }, (_, k) => ({ name: 'noop', data: { i: i + k }, opts: { removeOnComplete: true } })));
  }
  let done = 0;
  let finish: () => void = () => undefined;
  const all = new Promise<void>((r) => { finish = r; });
  const started = performance.now();
  const w = new Worker('noop', async () => null, { connection, prefix, concurrency: JOB_CONCURRENCY });
  w.on('completed', () => { if (++done === n) finish(); });
  await all;
  const seconds = (performance.now() - started) / 1000;
  await w.close();
  await q.obliterate({ force: true });
  await q.close();
  return n / seconds;
}

interface RunStats { mode: string; runs: number; seconds: number; runsPerSec: number; stepP50: number; stepP95: number; overheadP50: number; overheadP95: number }

export async function main(args: string[]): Promise<void> {
  const n = arg(args, 'runs', 1000);
  const redis = await benchRedis();
  const store = await openDb();
  const sink = await startWebhookSink();
  const stack = await createWorkflowStack({
    redisUrl: redis.url, db: store.db, kind: store.kind, workers: false,
    module: { evaluator: {}, lockDurationMs: 30_000, stalledIntervalMs: 30_000 },
  });
  try {
    const at = await createOrgAndProject(stack.deps, 'Workflow bench');
    stack.google.spreadsheets.create('bench', ['Rows']);
    const conn = await stack.deps.sheets.connections.create(at.scope, { name: 'bench', service_account_key: serviceAccountKey(stack.google) }, null);
    const exp = await stack.deps.sheets.exports.create(at.scope, {
      project_id: at.projectId, connection_id: conn.id, spreadsheet_id: 'bench', sheet_name: 'Rows', trigger: 'manual',
      columns: [{ header: 'Document', field: 'document.id' }, { header: 'Total', field: 'fields.total' }, { header: 'Approved', field: 'fields.approved' }],
    }, null);
    const wf = await stack.deps.workflows.service.create(at.scope, {
      name: 'Bench',
      nodes: [
        { id: 'start', type: 'trigger.manual', config: {} },
        { id: 'big', type: 'condition', config: { expression: 'document.fields.total.value > 50' } },
        { id: 'approve', type: 'set_fields', config: { fields: { approved: 'true', net: 'document.fields.total.value / 1.19' } } },
        { id: 'sheet', type: 'export_sheets', config: { export_id: exp.id } },
        { id: 'notify', type: 'send_webhook_event', config: { url: `${new URL(sink.url).origin}/hook`, payload: '{"doc": document.id}' } },
      ],
      edges: [{ source: 'start', target: 'big' }, { source: 'big', target: 'approve', when: 'true' }, { source: 'approve', target: 'sheet' }, { source: 'sheet', target: 'notify' }],
    }, null);

    const baseline = await noopJobs(redis.url, n);
    const results: RunStats[] = [];
    for (const mode of ['execute', 'dry_run'] as const) {
      const docs = await insertExtractedDocuments(stack.deps.db, { orgId: at.orgId, projectId: at.projectId }, n);
      const runIds: string[] = [];
      for (const d of docs) runIds.push((await stack.deps.workflows.service.run(at.scope, wf.id, { mode, input: { document_id: d.id } }, null)).id);
      const started = performance.now();
      await stack.startWorkers();
      const deadline = Date.now() + 600_000;
      for (;;) {
        const { rows } = await stack.deps.db.query<{ n: number }>(`SELECT count(*) AS n FROM workflow_runs WHERE id = ANY($1::text[]) AND status IN ('completed', 'failed')`, [runIds]);
        if (rows[0].n >= n) break;
        if (Date.now() > deadline) throw new Error(`${mode}: only ${rows[0].n} of ${n} runs finished after 600 s`);
        // Not more often: on PGlite this query shares the one connection with the runs.
        await new Promise((r) => setTimeout(r, 100));
      }
      const seconds = (performance.now() - started) / 1000;
      await stack.stopWorkers();
      const { rows: failed } = await stack.deps.db.query<{ n: number }>(`SELECT count(*) AS n FROM workflow_runs WHERE id = ANY($1::text[]) AND status <> 'completed'`, [runIds]);
      if (failed[0].n > 0) throw new Error(`${mode}: ${failed[0].n} runs did not complete`);
      const steps = (await stack.deps.db.query<{ d: number }>(`SELECT duration_ms AS d FROM workflow_steps WHERE run_id = ANY($1::text[]) ORDER BY duration_ms`, [runIds])).rows.map((r) => r.d);
      const overhead = (await stack.deps.db.query<{ d: number }>(
        `SELECT extract(epoch FROM (finished_at - started_at)) * 1000 / 5 AS d FROM workflow_runs WHERE id = ANY($1::text[]) ORDER BY 1`, [runIds])).rows.map((r) => Number(r.d));
      results.push({
        mode, runs: n, seconds: Number(seconds.toFixed(2)), runsPerSec: Math.round(n / seconds),
        stepP50: pct(steps, 50), stepP95: pct(steps, 95), overheadP50: Number(pct(overhead, 50).toFixed(1)), overheadP95: Number(pct(overhead, 95).toFixed(1)),
      });
    }
    // Let the exports and deliveries of the executed runs finish, to check the effects landed.
    await stack.startWorkers();
    const until = Date.now() + 120_000;
    while ((stack.google.spreadsheets.getValues('bench', 'Rows').length - 1 < n || sink.requests.length < n) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await stack.stopWorkers();

    console.log(`\nWorkflows: ${n} runs of trigger → condition → set_fields → export_sheets → send_webhook_event (${store.label}, ${JOB_CONCURRENCY} runs at a time)`);
    table(results.map((r) => ({ ...r })));
    console.log(`\nBullMQ no-op jobs, same Redis and concurrency: ${Math.round(baseline)} jobs/s`);
    for (const r of results) console.log(`${r.mode}: ${(r.runsPerSec / baseline).toFixed(3)}× the no-op job rate (${(baseline / r.runsPerSec).toFixed(1)} no-op jobs per run)`);
    console.log(`effects of the executed runs: ${stack.google.spreadsheets.getValues('bench', 'Rows').length - 1} sheet rows, ${sink.requests.length} webhook deliveries received`);
    console.log(`targets: >= 100 runs/s executed (${results[0].runsPerSec}), step p50 <= 5 ms (${results[0].stepP50} ms), overhead per step p50 (${results[0].overheadP50} ms)`);
  } finally {
    await stack.close();
    await sink.close();
    await store.close();
    await redis.stop();
  }
}
