// `npm run bench -- memory [warm=100] [more=600] [--baseline DIR] [--only split|start|startpg]`: resident memory of the real
// processes (`docpipe api`, `docpipe worker`, and the all-in-one `docpipe start`, run from dist/)
// with their child processes (parser children; Redis excluded), after start, after `warm`
// documents and after `more` further ones; plus which heavy packages each role loaded. With
// `--baseline DIR` (a checkout of an earlier commit with `npm run build` done, e.g. a
// `git worktree` under /tmp with node_modules linked), the same runs of that code come first.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';
import { multipart } from '../helpers/multipart.js';
import { freePort, waitForPort } from '../helpers/net.js';
import { generateTinyModel } from '../helpers/tiny-model.js';
import { benchPostgres, benchRedis, benchTmpDir, CLI, cpuSecs, SECRETS, seed, table } from './harness.js';

const TRACE_HOOK = pathToFileURL(fileURLToPath(new URL('./module-trace.js', import.meta.url))).href;
/** Packages worth knowing about per role: each costs megabytes once loaded. */
const HEAVY = [
  '@huggingface/transformers',
  'onnxruntime-node',
  'tesseract.js',
  'exceljs',
  'googleapis',
  'google-auth-library',
  'pdfjs-dist',
  'pdf-parse',
  'mammoth',
  'mailparser',
  'imapflow',
  'nodemailer',
  'smtp-server',
  'mailauth',
  '@aws-sdk/client-s3',
  'jsonata',
  '@fastify/swagger',
  '@fastify/swagger-ui',
];
/** Native libraries seen in /proc/<pid>/maps that say a heavy runtime is in the process. */
const NATIVE = /onnxruntime|sharp|vips|tesseract|canvas/i;

const mb = (kb: number) => Math.round(kb / 1024);

function status(pid: number): { rssKb: number; ppid: number; name: string } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      rssKb: Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0),
      ppid: Number(/PPid:\s+(\d+)/.exec(s)?.[1] ?? 0),
      name: /Name:\s+(.*)/.exec(s)?.[1] ?? '?',
    };
  } catch {
    return undefined; // exited between listing and reading
  }
}

/** The process and all its descendants, Redis left out (it is not docpipe's memory). */
function tree(root: number): { pid: number; rssKb: number; label: string }[] {
  const all = new Map<number, ReturnType<typeof status>>();
  for (const d of readdirSync('/proc')) if (/^\d+$/.test(d)) all.set(Number(d), status(Number(d)));
  const out: { pid: number; rssKb: number; label: string }[] = [];
  const walk = (pid: number, depth: number) => {
    const s = all.get(pid);
    if (!s || s.name === 'redis-server') return;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(1).join(' ');
    } catch {
      /* gone */
    }
    const label = depth === 0 ? 'main' : (/([\w-]+)\.js/.exec(cmd)?.[1] ?? s.name);
    out.push({ pid, rssKb: s.rssKb, label });
    for (const [child, cs] of all) if (cs?.ppid === pid) walk(child, depth + 1);
  };
  walk(root, 0);
  return out;
}

function nativeLibs(pid: number): string[] {
  try {
    const libs = new Set<string>();
    for (const line of readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
      const file = line.split(/\s+/)[5];
      if (file && NATIVE.test(file)) libs.add(file.slice(file.lastIndexOf('/') + 1));
    }
    return [...libs];
  } catch {
    return [];
  }
}

interface Proc {
  child: ChildProcess;
  stop(): Promise<void>;
}

function run(cli: string, role: string, env: Record<string, string>, port: number): Proc {
  // The bench's own DATABASE_URL names the server it makes databases on: a run that seeded an
  // embedded database must not inherit it (its key would not be found: every upload a 401).
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  // BENCH_NODE_ARGS: flags for the measured processes (e.g. "--max-semi-space-size=2").
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, cli, role], {
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return {
    child,
    stop: () =>
      new Promise<void>((r) => {
        if (child.exitCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

/** Half one-line text files, half one-page PDFs, each unique. */
async function documents(from: number, n: number): Promise<{ name: string; data: Buffer; type: string }[]> {
  const out = [];
  for (let i = from; i < from + n; i++) {
    if (i % 2)
      out.push({
        name: `note-${i}.txt`,
        data: Buffer.from(`Note ${i}: invoice INV-${i} for 1${i}.00 EUR, due 2026-12-01.\n`),
        type: 'text/plain',
      });
    else
      out.push({
        name: `letter-${i}.pdf`,
        data: await makeTextPdf({ pages: [[`Letter ${i}`, `Order ${i} was shipped on 2026-11-${(i % 28) + 1}.`]] }),
        type: 'application/pdf',
      });
  }
  return out;
}

async function push(url: string, key: string, projectId: string, docs: { name: string; data: Buffer; type: string }[]) {
  let i = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (i < docs.length) {
        const d = docs[i++];
        const body = multipart({ project_id: projectId, allow_duplicate: 'true' }, d);
        const res = await fetch(`${url}/api/v1/documents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, ...body.headers },
          body: new Uint8Array(body.payload),
        });
        if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
      }
    }),
  );
}

async function waitDone(url: string, key: string, projectId: string, expected: number): Promise<void> {
  const deadline = Date.now() + 1_800_000;
  for (;;) {
    const res = await fetch(`${url}/api/v1/projects/${projectId}/stats`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const by = ((await res.json()) as any).data.documents_by_status as Record<string, number>;
    if ((by.completed ?? 0) + (by.failed ?? 0) + (by.needs_review ?? 0) >= expected) {
      // Failed documents hold no parse, embedding or extraction: their memory says nothing.
      if (by.failed) throw new Error(`${by.failed} of ${expected} documents failed: ${JSON.stringify(by)}`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(by)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

type Row = Record<string, string | number>;

/** Samples each process tree: one row per process, one per tree total. */
function sample(rows: Row[], variant: string, scenario: string, point: string, roots: Record<string, number>) {
  for (const [role, pid] of Object.entries(roots)) {
    const procs = tree(pid);
    for (const p of procs)
      rows.push({
        variant,
        scenario,
        point,
        process: `${role}:${p.label}`,
        rss_mb: mb(p.rssKb),
        native: nativeLibs(p.pid).join(' ') || '-',
      });
    rows.push({
      variant,
      scenario,
      point,
      process: `${role} tree`,
      rss_mb: mb(procs.reduce((s, p) => s + p.rssKb, 0)),
      native: '',
    });
  }
}

/** The main process's CPU per document over the `more` documents (what a memory setting costs). */
function cpuRow(rows: Row[], variant: string, scenario: string, process: string, secs: number, n: number): void {
  if (n > 0)
    rows.push({
      variant,
      scenario,
      point: 'CPU ms/doc',
      process,
      rss_mb: Math.round((secs * 10_000) / n) / 10,
      native: '',
    });
}

interface Ctx {
  modelDir: string;
  redisUrl: string;
  warm: number;
  more: number;
}

const settle = () => new Promise((r) => setTimeout(r, 3000));

function baseEnv(ctx: Ctx, tag: string): Record<string, string> {
  return {
    ...SECRETS,
    REDIS_URL: ctx.redisUrl,
    REDIS_PREFIX: `benchmem${tag}${Date.now()}`,
    LOG_LEVEL: 'warn',
    EMBEDDING_MODEL: 'docpipe-test/tiny-bert',
    EMBEDDING_MODEL_DIR: ctx.modelDir,
    ALLOW_MODEL_DOWNLOAD: 'false',
    CLASSIFY_KNN: 'false',
  };
}

/** Separate `api` and `worker` processes over one PostgreSQL database. */
async function split(cli: string, variant: string, ctx: Ctx, rows: Row[], trace?: string): Promise<void> {
  const pgdb = await benchPostgres();
  if (!pgdb) return;
  const env = { ...baseEnv(ctx, 'split'), DATABASE_URL: pgdb.url, DATA_DIR: benchTmpDir('docpipe-bench-mem-') };
  const traced: Record<string, string> = trace
    ? { NODE_OPTIONS: `--import ${TRACE_HOOK}`, DOCPIPE_MODULE_TRACE: trace }
    : {};
  const { key, projectId } = await seed(env, { projects: 1 });
  const port = await freePort();
  const api = run(cli, 'api', { ...env, ...traced }, port);
  // One DATA_DIR for both, as two hosts share a volume (or a bucket): the worker reads the files
  // the API stored there. (Each with its own folder, every document failed at parse.)
  const worker = run(cli, 'worker', { ...env, ...traced }, await freePort());
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForPort(port, 120_000);
    await settle();
    const roots = { api: api.child.pid!, worker: worker.child.pid! };
    const warm = trace ? 20 : ctx.warm;
    if (!trace) sample(rows, variant, 'api+worker', 'started', roots);
    await push(url, key, projectId, await documents(0, warm));
    await waitDone(url, key, projectId, warm);
    if (trace) {
      printTrace(variant, trace, roots);
      return;
    }
    sample(rows, variant, 'api+worker', `after ${warm}`, roots);
    const cpu0 = cpuSecs(roots.worker);
    await push(url, key, projectId, await documents(warm, ctx.more));
    await waitDone(url, key, projectId, warm + ctx.more);
    sample(rows, variant, 'api+worker', `after ${warm + ctx.more}`, roots);
    cpuRow(rows, variant, 'api+worker', 'worker:main', cpuSecs(roots.worker) - cpu0, ctx.more);
  } finally {
    await api.stop();
    await worker.stop();
    await pgdb.drop();
  }
}

/**
 * `docpipe start`: API and workers in one process tree, embedded database (as `npm start`); with
 * `postgres`, the same tree against a PostgreSQL server (`DATABASE_URL`), whose memory is outside
 * the tree like Redis's.
 */
async function allInOne(cli: string, variant: string, ctx: Ctx, rows: Row[], postgres = false): Promise<void> {
  const pgdb = postgres ? await benchPostgres() : null;
  if (postgres && !pgdb) return;
  const env = {
    ...baseEnv(ctx, postgres ? 'startpg' : 'start'),
    DATA_DIR: benchTmpDir('docpipe-bench-mem-'),
    ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
  };
  const scenario = postgres ? 'start (PostgreSQL)' : 'start';
  const { key, projectId } = await seed(env, { projects: 1 });
  const port = await freePort();
  const srv = run(cli, 'start', env, port);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForPort(port, 120_000);
    await settle();
    const roots = { start: srv.child.pid! };
    sample(rows, variant, scenario, 'started', roots);
    await push(url, key, projectId, await documents(0, ctx.warm));
    await waitDone(url, key, projectId, ctx.warm);
    sample(rows, variant, scenario, `after ${ctx.warm}`, roots);
    const cpu0 = cpuSecs(roots.start);
    await push(url, key, projectId, await documents(ctx.warm, ctx.more));
    await waitDone(url, key, projectId, ctx.warm + ctx.more);
    sample(rows, variant, scenario, `after ${ctx.warm + ctx.more}`, roots);
    cpuRow(rows, variant, scenario, 'start:main', cpuSecs(roots.start) - cpu0, ctx.more);
    // Past the parser pool's idle timeout (30 s): what a quiet install holds between bursts.
    await new Promise((r) => setTimeout(r, 35_000));
    sample(rows, variant, scenario, 'idle 35 s', roots);
  } finally {
    await srv.stop();
    await pgdb?.drop();
  }
}

/** Which heavy packages each traced process (and its children) resolved. */
function printTrace(variant: string, dir: string, roots: Record<string, number>): void {
  const out: Row[] = [];
  for (const [role, pid] of Object.entries(roots))
    for (const p of tree(pid)) {
      let pkgs: string[] = [];
      try {
        pkgs = readFileSync(join(dir, `${p.pid}.txt`), 'utf8')
          .split('\n')
          .filter(Boolean);
      } catch {
        /* resolved nothing from node_modules, or not a node process */
      }
      const heavy = HEAVY.filter((h) => pkgs.includes(h));
      out.push({ variant, process: `${role}:${p.label}`, packages: pkgs.length, heavy: heavy.join(' ') || '-' });
    }
  console.log(`\npackages loaded after 20 documents (${variant})`);
  table(out);
}

export async function main(args: string[]): Promise<void> {
  const b = args.indexOf('--baseline');
  const baseline = b >= 0 ? resolve(args.splice(b, 2)[1]) : undefined;
  // --only split|start|startpg: one scenario (and no module trace), for quick experiments.
  const o = args.indexOf('--only');
  const only = o >= 0 ? args.splice(o, 2)[1] : undefined;
  const warm = Number(args[0] ?? 100);
  const more = Number(args[1] ?? 600);
  const modelDir = benchTmpDir('docpipe-bench-model-');
  await generateTinyModel(modelDir);
  const redis = await benchRedis();
  const ctx: Ctx = { modelDir, redisUrl: redis.url, warm, more };
  const variants: [string, string][] = [
    ...(baseline ? [['before', join(baseline, 'dist', 'src', 'cli.js')] as [string, string]] : []),
    ['after', CLI],
  ];
  const rows: Row[] = [];
  try {
    for (const [variant, cli] of only ? [] : variants) {
      console.log(`${variant}: module trace (api, worker)…`);
      await split(cli, variant, ctx, rows, mkdtempSync(join(benchTmpDir('docpipe-bench-trace-'), 't')));
    }
    for (const [variant, cli] of variants) {
      if (!only || only === 'split') {
        console.log(`${variant}: api + worker, ${warm} + ${more} documents…`);
        await split(cli, variant, ctx, rows);
      }
      if (!only || only === 'start') {
        console.log(`${variant}: start, ${warm} + ${more} documents…`);
        await allInOne(cli, variant, ctx, rows);
      }
      if (!only || only === 'startpg') {
        console.log(`${variant}: start against PostgreSQL, ${warm} + ${more} documents…`);
        await allInOne(cli, variant, ctx, rows, true);
      }
    }
  } finally {
    await redis.stop();
  }
  console.log('\nresident memory (VmRSS) per process and per tree, Redis excluded');
  table(rows);
  console.log(
    '\ntargets: worker tree ≤ 250 MB after warm-up; start tree ≤ 450 MB after 100; growth ≤ 30 MB over the next 600',
  );
}
