// `npm run bench -- workflows [--runs N]`: N runs (default 1000) of a 5-node workflow
// (trigger → condition → set_fields → export_sheets to the fake Google server →
// send_webhook_event to a local receiver), each on its own document, executed and then as
// dry runs; against BullMQ no-op jobs on the same Redis in the same run. Runs are created first
// (queued, with their jobs) and the clock starts when the workers start. Sheets buffers flush on
// the default 200 ms period. Reports runs/s, the
// time of one step (its own work plus its commit; `duration_ms` of the step records) and the
// engine's overhead per step (a run's wall time from start to finish, divided by its steps).
// On a shared machine wall time says little, so each mode also reports what it cost: CPU of this
// process per run (engine, workers and, on PGlite, the database itself), of
// Redis (INFO cpu) and of the PostgreSQL backends (their /proc entries), the SQL statements and
// Redis commands per run, and the runs/s two idle cores would give at that CPU cost (an estimate).
//
// PGlite by default; PostgreSQL when DATABASE_URL is set. A private redis-server unless REDIS_URL.
import { readFileSync } from 'node:fs';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createDb, type Db, type Queryable } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { startWebhookSink } from '../helpers/webhook-sink.js';
import { createOrgAndProject, insertExtractedDocuments, serviceAccountKey } from '../helpers/sheets-harness.js';
import { createWorkflowStack } from '../helpers/workflows-harness.js';
import { benchPostgres, benchRedis, cpuSecs, table } from './harness.js';
import {
  createExpressionEvaluator,
  type ExpressionEvaluator,
} from '../../src/modules/workflows/expressions/evaluator.js';
import { createExpressionEvaluator as createThreadEvaluator } from './baseline/thread-evaluator.js';

const WORKER_CONCURRENCY = 2; // the workflow worker runs 4× this many jobs at once (8)
const JOB_CONCURRENCY = Math.max(4, WORKER_CONCURRENCY * 4);

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;

/** Counts the statements sent through `db` (transactions: BEGIN, COMMIT and what runs inside). */
// With BENCH_DETAIL=1 it also counts them by text (printed per mode, most frequent first).
const DETAIL = process.env.BENCH_DETAIL === '1';

interface StatementCounter {
  readonly n: number;
  texts: Map<string, number>;
}

function countStatements(db: Db): StatementCounter {
  const counter = { n: 0, texts: new Map<string, number>() };
  const query = db.query.bind(db);
  const tx = db.tx.bind(db);
  const count = (sql: string) => {
    counter.n++;
    if (DETAIL) {
      const k = sql.replace(/\s+/g, ' ').trim().slice(0, 110);
      counter.texts.set(k, (counter.texts.get(k) ?? 0) + 1);
    }
  };
  const counting = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      count(sql);
      return q.query(sql, params);
    },
  });
  Object.assign(db, {
    query: counting({ query }).query,
    tx: <T>(fn: (q: Queryable) => Promise<T>) => {
      count('BEGIN');
      count('COMMIT');
      return tx((q) => fn(counting(q)));
    },
  });
  return counter;
}

/** CPU seconds of this process's main thread (on PGlite the database runs there too). */
function mainThreadCpu(): number {
  const f = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / 100; // utime, stime in clock ticks
}

async function openDb(): Promise<{
  db: Db;
  label: string;
  kind: 'pglite' | 'postgres';
  statements: StatementCounter;
  backendCpu(): Promise<number>;
  close(): Promise<void>;
}> {
  if (process.env.DATABASE_URL) {
    const pg = await benchPostgres();
    if (pg) {
      const db = await createDb({ url: pg.url, poolSize: 10 });
      await migrate(db);
      // CPU of this database's server processes, when they run on this machine (their /proc is
      // readable); a backend that exits between two readings takes its share with it.
      const seen = new Map<number, number>();
      const backendCpu = async () => {
        const { rows } = await db.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
        );
        for (const r of rows) {
          try {
            seen.set(r.pid, cpuSecs(r.pid));
          } catch {
            /* not on this machine */
          }
        }
        return [...seen.values()].reduce((a, b) => a + b, 0);
      };
      return {
        db,
        label: 'postgres',
        kind: 'postgres',
        statements: countStatements(db),
        backendCpu,
        close: async () => {
          await db.close();
          await pg.drop();
        },
      };
    }
  }
  const db = await createDb({});
  await migrate(db);
  // PGlite runs inside this process: its CPU is in process.cpuUsage.
  return {
    db,
    label: 'pglite',
    kind: 'pglite',
    statements: countStatements(db),
    backendCpu: async () => 0,
    close: () => db.close(),
  };
}

/** Redis CPU seconds (server, all threads) and commands processed so far (by command with BENCH_DETAIL=1). */
async function redisCounters(r: Redis): Promise<{ cpu: number; commands: number; byCommand: Map<string, number> }> {
  const info = await r.info(DETAIL ? 'everything' : 'default');
  const num = (k: string) => Number(new RegExp(`^${k}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
  const byCommand = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) byCommand.set(m[1], Number(m[2]));
  return { cpu: num('used_cpu_user') + num('used_cpu_sys'), commands: num('total_commands_processed'), byCommand };
}

function printDetail(mode: string, runs: number, sql: Map<string, number>, redis: Map<string, number>): void {
  console.log(`\n${mode}: statements per run by text`);
  for (const [k, v] of [...sql].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${(v / runs).toFixed(2).padStart(7)}  ${k}`);
  console.log(`${mode}: Redis commands per run`);
  for (const [k, v] of [...redis].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${(v / runs).toFixed(2).padStart(7)}  ${k}`);
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** BullMQ jobs that do nothing, same concurrency: what the queue alone costs. */
async function noopJobs(redisUrl: string, n: number): Promise<number> {
  const u = new URL(redisUrl);
  const connection = { host: u.hostname, port: Number(u.port || 6379), maxRetriesPerRequest: null };
  const prefix = `bench${Date.now().toString(36)}`;
  const q = new Queue('noop', { connection, prefix });
  for (let i = 0; i < n; i += 500) {
    await q.addBulk(
      Array.from({ length: Math.min(500, n - i) }, (_, k) => ({
        name: 'noop',
        data: { i: i + k },
        opts: { removeOnComplete: true },
      })),
    );
  }
  let done = 0;
  let finish: () => void = () => undefined;
  const all = new Promise<void>((r) => {
    finish = r;
  });
  const started = performance.now();
  const w = new Worker('noop', async () => null, { connection, prefix, concurrency: JOB_CONCURRENCY });
  w.on('completed', () => {
    if (++done === n) finish();
  });
  await all;
  const seconds = (performance.now() - started) / 1000;
  await w.close();
  await q.obliterate({ force: true });
  await q.close();
  return n / seconds;
}

interface RunStats {
  mode: string;
  runs: number;
  seconds: number;
  runsPerSec: number;
  stepP50: number;
  stepP95: number;
  overheadP50: number;
  overheadP95: number;
}
/** What one run cost: CPU ms of this process, Redis and the database server; statements and commands. */
interface RunCost {
  mode: string;
  cpuMsNode: number;
  cpuMsMain: number;
  cpuMsRedis: number;
  cpuMsDb: number;
  cpuMsTotal: number;
  sqlPerRun: number;
  redisCmdsPerRun: number;
  idle2CoreRunsPerSec: number;
}

/**
 * The isolation change, measured on its own: expressions that are not simple enough for the
 * in-process fast path (a function call, a filter) evaluated through the former worker-thread
 * evaluator (the baseline) and through the child-process evaluator, 8 calls in flight.
 */
async function isolation(calls: number): Promise<Record<string, string | number>[]> {
  const input = {
    document: {
      id: 'doc_1',
      filename: 'invoice.pdf',
      fields: { total: { value: 120.5 }, items: [{ v: 1 }, { v: 2 }] },
    },
    variables: { limit: 100 },
  };
  const exprs = [
    '$uppercase(document.filename) & "-" & $string($sum(document.fields.items.v))',
    'document.fields.items[v > 1].v',
  ];
  const rows: Record<string, string | number>[] = [];
  const one = async (label: string, ev: Pick<ExpressionEvaluator, 'evaluate' | 'close'>) => {
    await ev.evaluate(exprs, input); // start-up is not evaluation time
    const lat: number[] = [];
    let next = 0;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next++ < calls) {
          const s = performance.now();
          await ev.evaluate(exprs, input);
          lat.push(performance.now() - s);
        }
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    lat.sort((a, b) => a - b);
    rows.push({
      evaluator: label,
      callsPerSec: Math.round(calls / secs),
      p50ms: Number(pct(lat, 50).toFixed(2)),
      p95ms: Number(pct(lat, 95).toFixed(2)),
      cpuMsPerCallThisProcess: Number(((cpu.user + cpu.system) / 1000 / calls).toFixed(3)),
    });
    await ev.close();
  };
  await one('before: worker threads (64 MB heap limit, not a hard cap)', createThreadEvaluator({ threads: 2 }));
  await one('after: child processes (96 MB heap + RLIMIT_DATA)', createExpressionEvaluator({ processes: 2 }));
  return rows;
}

export async function main(args: string[]): Promise<void> {
  const n = arg(args, 'runs', 1000);
  const isolationRows = await isolation(arg(args, 'calls', 4000));
  const redis = await benchRedis();
  const redisClient = new Redis(redis.url, { maxRetriesPerRequest: null });
  const store = await openDb();
  const load0 = loadavg();
  const sink = await startWebhookSink();
  const stack = await createWorkflowStack({
    redisUrl: redis.url,
    db: store.db,
    kind: store.kind,
    workers: false,
    module: {
      evaluator: {},
      lockDurationMs: 30_000,
      stalledIntervalMs: 30_000,
      sliceMs: Number(process.env.BENCH_SLICE_MS ?? 10_000),
    },
    // The flush period of a real installation (tests flush every 50 ms to finish sooner).
    sheets: { flushDelayMs: 200 },
  });
  try {
    const at = await createOrgAndProject(stack.deps, 'Workflow bench');
    stack.google.spreadsheets.create('bench', ['Rows']);
    const conn = await stack.deps.sheets.connections.create(
      at.scope,
      { name: 'bench', service_account_key: serviceAccountKey(stack.google) },
      null,
    );
    const exp = await stack.deps.sheets.exports.create(
      at.scope,
      {
        project_id: at.projectId,
        connection_id: conn.id,
        spreadsheet_id: 'bench',
        sheet_name: 'Rows',
        trigger: 'manual',
        columns: [
          { header: 'Document', field: 'document.id' },
          { header: 'Total', field: 'fields.total' },
          { header: 'Approved', field: 'fields.approved' },
        ],
      },
      null,
    );
    const wf = await stack.deps.workflows.service.create(
      at.scope,
      {
        name: 'Bench',
        nodes: [
          { id: 'start', type: 'trigger.manual', config: {} },
          { id: 'big', type: 'condition', config: { expression: 'document.fields.total.value > 50' } },
          {
            id: 'approve',
            type: 'set_fields',
            config: { fields: { approved: 'true', net: 'document.fields.total.value / 1.19' } },
          },
          { id: 'sheet', type: 'export_sheets', config: { export_id: exp.id } },
          {
            id: 'notify',
            type: 'send_webhook_event',
            config: { url: `${new URL(sink.url).origin}/hook`, payload: '{"doc": document.id}' },
          },
        ],
        edges: [
          { source: 'start', target: 'big' },
          { source: 'big', target: 'approve', when: 'true' },
          { source: 'approve', target: 'sheet' },
          { source: 'sheet', target: 'notify' },
        ],
      },
      null,
    );

    const baseline = await noopJobs(redis.url, n);
    const results: RunStats[] = [];
    const costs: RunCost[] = [];
    type Snap = {
      node: NodeJS.CpuUsage;
      main: number;
      redis: Awaited<ReturnType<typeof redisCounters>>;
      db: number;
      sql: number;
      texts: Map<string, number>;
    };
    const snap = async (): Promise<Snap> => ({
      node: process.cpuUsage(),
      main: mainThreadCpu(),
      redis: await redisCounters(redisClient),
      db: await store.backendCpu(),
      sql: store.statements.n,
      texts: new Map(store.statements.texts),
    });
    // The counters' own statements and commands (a few per 100 ms poll) are left in: they are noise next to a run's.
    const cost = async (mode: string, from: Snap, runs: number): Promise<RunCost> => {
      const to = await snap();
      const cpuNode = (to.node.user - from.node.user + to.node.system - from.node.system) / 1000 / runs;
      const cpuMain = ((to.main - from.main) * 1000) / runs;
      const cpuRedis = ((to.redis.cpu - from.redis.cpu) * 1000) / runs;
      const cpuDb = ((to.db - from.db) * 1000) / runs;
      const total = cpuNode + cpuRedis + cpuDb;
      if (DETAIL) {
        const diff = (a: Map<string, number>, b: Map<string, number>) =>
          new Map([...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)] as [string, number]).filter(([, v]) => v > 0));
        printDetail(mode, runs, diff(from.texts, to.texts), diff(from.redis.byCommand, to.redis.byCommand));
      }
      // On PGlite the database shares the main thread with the engine: one core at most, whatever
      // the total.
      const bound = Math.min(2000 / total, store.kind === 'pglite' ? 1000 / cpuMain : Infinity);
      return {
        mode,
        cpuMsNode: Number(cpuNode.toFixed(2)),
        cpuMsMain: Number(cpuMain.toFixed(2)),
        cpuMsRedis: Number(cpuRedis.toFixed(2)),
        cpuMsDb: Number(cpuDb.toFixed(2)),
        cpuMsTotal: Number(total.toFixed(2)),
        sqlPerRun: Number(((to.sql - from.sql) / runs).toFixed(1)),
        redisCmdsPerRun: Number(((to.redis.commands - from.redis.commands) / runs).toFixed(1)),
        idle2CoreRunsPerSec: Math.round(bound),
      };
    };
    for (const mode of ['execute', 'dry_run'] as const) {
      const docs = await insertExtractedDocuments(stack.deps.db, { orgId: at.orgId, projectId: at.projectId }, n);
      const runIds: string[] = [];
      for (const d of docs)
        runIds.push(
          (await stack.deps.workflows.service.run(at.scope, wf.id, { mode, input: { document_id: d.id } }, null)).id,
        );
      const before = await snap();
      // Profiles (node --cpu-prof) can be cut to this window: V8 stamps samples with the same clock.
      if (DETAIL) console.log(`${mode}: window starts at ${process.hrtime.bigint() / 1000n} µs`);
      const started = performance.now();
      await stack.startWorkers();
      const deadline = Date.now() + 600_000;
      for (;;) {
        // Only this mode's runs are unfinished, and the open-runs index keeps this count cheap (a
        // count over the 1,000 ids, planned afresh every 100 ms, cost the database measurable CPU).
        const { rows } = await stack.deps.db.query<{ n: number }>(
          `SELECT count(*) AS n FROM workflow_runs WHERE status IN ('queued', 'running')`,
        );
        if (rows[0].n === 0) break;
        if (Date.now() > deadline) throw new Error(`${mode}: only ${n - rows[0].n} of ${n} runs finished after 600 s`);
        // Not more often: on PGlite this query shares the one connection with the runs.
        await new Promise((r) => setTimeout(r, 100));
      }
      const seconds = (performance.now() - started) / 1000;
      if (DETAIL) console.log(`${mode}: window ends at ${process.hrtime.bigint() / 1000n} µs`);
      costs.push(await cost(mode, before, n));
      await stack.stopWorkers();
      const { rows: failed } = await stack.deps.db.query<{ n: number }>(
        `SELECT count(*) AS n FROM workflow_runs WHERE id = ANY($1::text[]) AND status <> 'completed'`,
        [runIds],
      );
      if (failed[0].n > 0) throw new Error(`${mode}: ${failed[0].n} runs did not complete`);
      const steps = (
        await stack.deps.db.query<{ d: number }>(
          `SELECT duration_ms AS d FROM workflow_steps WHERE run_id = ANY($1::text[]) ORDER BY duration_ms`,
          [runIds],
        )
      ).rows.map((r) => r.d);
      const overhead = (
        await stack.deps.db.query<{ d: number }>(
          `SELECT extract(epoch FROM (finished_at - started_at)) * 1000 / 5 AS d FROM workflow_runs WHERE id = ANY($1::text[]) ORDER BY 1`,
          [runIds],
        )
      ).rows.map((r) => Number(r.d));
      results.push({
        mode,
        runs: n,
        seconds: Number(seconds.toFixed(2)),
        runsPerSec: Math.round(n / seconds),
        stepP50: pct(steps, 50),
        stepP95: pct(steps, 95),
        overheadP50: Number(pct(overhead, 50).toFixed(1)),
        overheadP95: Number(pct(overhead, 95).toFixed(1)),
      });
    }
    // Let the exports and deliveries of the executed runs finish, to check the effects landed.
    // What that still costs belongs to the executed runs: it is added to their row.
    const drain = await snap();
    await stack.startWorkers();
    const until = Date.now() + 120_000;
    while (
      (stack.google.spreadsheets.getValues('bench', 'Rows').length - 1 < n || sink.requests.length < n) &&
      Date.now() < until
    )
      await new Promise((r) => setTimeout(r, 50));
    await stack.stopWorkers();
    const tail = await cost('execute, effects still pending at the end', drain, n);

    console.log(
      `\nWorkflows: ${n} runs of trigger → condition → set_fields → export_sheets → send_webhook_event (${store.label}, ${JOB_CONCURRENCY} runs at a time)`,
    );
    table(results.map((r) => ({ ...r })));
    console.log(`\nBullMQ no-op jobs, same Redis and concurrency: ${Math.round(baseline)} jobs/s`);
    for (const r of results)
      console.log(
        `${r.mode}: ${(r.runsPerSec / baseline).toFixed(3)}× the no-op job rate (${(baseline / r.runsPerSec).toFixed(1)} no-op jobs per run)`,
      );
    console.log(
      `effects of the executed runs: ${stack.google.spreadsheets.getValues('bench', 'Rows').length - 1} sheet rows, ${sink.requests.length} webhook deliveries received`,
    );
    console.log(
      `\nCPU per run (ms; node = this process: engine, workers${store.kind === 'pglite' ? ', PGlite' : ''}), statements and Redis commands per run;`,
    );
    console.log(
      `main = its main thread${store.kind === 'pglite' ? ' (PGlite runs there: one core at most)' : ''}; idle2CoreRunsPerSec = 2 cores / total CPU per run${store.kind === 'pglite' ? ', at most 1 core / main-thread CPU per run' : ''}:`,
    );
    console.log('an estimate of an idle 2-core machine from the CPU spent, not a measurement');
    const ex = costs[0];
    const exTotal = {
      ...ex,
      mode: 'execute incl. effects drain',
      cpuMsNode: Number((ex.cpuMsNode + tail.cpuMsNode).toFixed(2)),
      cpuMsMain: Number((ex.cpuMsMain + tail.cpuMsMain).toFixed(2)),
      cpuMsRedis: Number((ex.cpuMsRedis + tail.cpuMsRedis).toFixed(2)),
      cpuMsDb: Number((ex.cpuMsDb + tail.cpuMsDb).toFixed(2)),
      cpuMsTotal: Number((ex.cpuMsTotal + tail.cpuMsTotal).toFixed(2)),
      sqlPerRun: Number((ex.sqlPerRun + tail.sqlPerRun).toFixed(1)),
      redisCmdsPerRun: Number((ex.redisCmdsPerRun + tail.redisCmdsPerRun).toFixed(1)),
      idle2CoreRunsPerSec: Math.round(
        Math.min(
          2000 / (ex.cpuMsTotal + tail.cpuMsTotal),
          store.kind === 'pglite' ? 1000 / (ex.cpuMsMain + tail.cpuMsMain) : Infinity,
        ),
      ),
    };
    table([...costs, exTotal].map((c) => ({ ...c })));
    console.log(`load average: ${load0} at the start, ${loadavg()} at the end (/proc/loadavg)`);
    console.log(
      '\nExpression isolation (expressions off the fast path, 2 evaluators of each kind, 8 calls in flight):',
    );
    table(isolationRows);
    const [before, after] = isolationRows as { callsPerSec: number }[];
    console.log(`after / before: ${(after.callsPerSec / before.callsPerSec).toFixed(2)}× the calls per second`);
    // Simple expressions are evaluated without a worker thread: none should have been needed.
    console.log(`expression evaluator processes started: ${stack.deps.workflows.evaluator.processesStarted}`);
    console.log(
      `targets: >= 100 runs/s executed (${results[0].runsPerSec}), step p50 <= 5 ms (${results[0].stepP50} ms), overhead per step p50 (${results[0].overheadP50} ms)`,
    );
  } finally {
    await stack.close();
    redisClient.disconnect();
    await sink.close();
    await store.close();
    await redis.stop();
  }
}
