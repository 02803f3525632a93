// `npm run bench -- scale [documents]`: pipeline throughput and upload→completed latency with 1,
// 2 and 3 `docpipe worker` processes (separate OS processes on this machine, behind one
// `docpipe api`), on PostgreSQL and one Redis, side by side with the ratio to one worker. Each
// configuration gets fresh processes and its own queues, a warm-up, then the same documents.
// CPU is counted over each process tree (parser child processes included) because on a shared
// machine a lower rate may only mean fewer cycles were to be had; the load average is printed.
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { packageRoot } from '../../src/lib/package-root.js';
import { loadSampleSet } from '../../src/pipeline/classify/index.js';
import { multipart, type MultipartBody } from '../helpers/multipart.js';
import { freePort, waitForPort } from '../helpers/net.js';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';
import { generateTinyModel } from '../helpers/tiny-model.js';
import {
  benchPostgres,
  benchRedis,
  benchTmpDir,
  cpuSpent,
  seed,
  SECRETS,
  startDocpipe,
  table,
  treeCpuSecs,
  type ServerProc,
} from './harness.js';

const WORKER_COUNTS = [1, 2, 3];
const round = (x: number) => Math.round(x * 10) / 10;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function makeCorpus(n: number): Promise<{ name: string; pdf: Buffer }[]> {
  const samples = await loadSampleSet(join(packageRoot(), 'samples', 'classifier'));
  const out: { name: string; pdf: Buffer }[] = [];
  for (let i = 0; i < n; i++) {
    const s = samples[(i * 7) % samples.length];
    const lines = s.text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => l.slice(0, 110).replace(/[^\x20-\x7E\xA0-\xFF€]/g, '?'));
    const half = Math.ceil(lines.length / 2);
    const pages = [
      [...lines.slice(0, half), `Reference ${i}`],
      lines.slice(half).length ? lines.slice(half) : ['(continued)'],
    ];
    out.push({ name: `${s.type}-${i}.pdf`, pdf: await makeTextPdf({ pages }) });
  }
  return out;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

function post(url: string, key: string, u: MultipartBody): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/api/v1/documents`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${key}`, ...u.headers, 'content-length': u.payload.length },
      },
      (res) => {
        res
          .resume()
          .on('end', () => resolve(res.statusCode ?? 0))
          .on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(u.payload);
  });
}

async function uploadAll(url: string, key: string, uploads: MultipartBody[], concurrency = 8): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < uploads.length) {
        const status = await post(url, key, uploads[i++]);
        if (status !== 201) throw new Error(`upload failed: ${status}`);
      }
    }),
  );
}

async function createProject(url: string, key: string, name: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, classification_threshold: 0 }),
  });
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** Polls the database (not the API under test) until `n` documents of the project are terminal. */
async function waitTerminal(db: pg.Pool, projectId: string, n: number, timeoutMs = 900_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM documents WHERE project_id = $1 AND status IN ('completed', 'failed', 'needs_review')`,
      [projectId],
    );
    if (Number(rows[0].n) >= n) return;
    if (Date.now() > deadline) throw new Error('timed out waiting for the pipeline');
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Run {
  workers: number;
  perMinute: number;
  p50: number;
  p95: number;
  failed: number;
  serverCpuMs: number;
  benchCpuMs: number;
  load: string;
}

export async function main(args: string[]): Promise<void> {
  const N = Number(args[0] ?? 150);
  /** Rounds of the three configurations; every other round runs them in reverse order, so a drift of the machine's speed does not favour one. */
  const rounds = Number(args[1] ?? 1);
  const pgdb = await benchPostgres();
  if (!pgdb) {
    console.log(
      'bench scale needs PostgreSQL (several processes share the database): set DATABASE_URL or run one at 127.0.0.1:5432',
    );
    return;
  }
  const modelRoot = benchTmpDir('docpipe-bench-model-');
  await generateTinyModel(modelRoot);
  const maxWarm = 10 * Math.max(...WORKER_COUNTS);
  console.log(`generating ${N + maxWarm} two-page PDFs…`);
  const files = await makeCorpus(N + maxWarm);
  const redis = await benchRedis();
  const base: Record<string, string> = {
    ...SECRETS,
    REDIS_URL: redis.url,
    LOG_LEVEL: 'warn',
    DATA_DIR: benchTmpDir('docpipe-bench-scale-'),
    DATABASE_URL: pgdb.url,
    DATABASE_POOL_SIZE: '5',
    EMBEDDING_MODEL: 'docpipe-test/tiny-bert',
    EMBEDDING_MODEL_DIR: modelRoot,
    ALLOW_MODEL_DOWNLOAD: 'false',
    CLASSIFY_KNN: 'false',
  };
  const { key } = await seed({ ...base, REDIS_PREFIX: 'benchscale-seed' }, { projects: 1 });
  const db = new pg.Pool({ connectionString: pgdb.url, max: 2 });
  const runs: Run[] = [];
  try {
    const order = Array.from({ length: rounds }, (_, r) =>
      r % 2 ? [...WORKER_COUNTS].reverse() : WORKER_COUNTS,
    ).flat();
    for (const [k, W] of order.entries()) {
      const env = { ...base, REDIS_PREFIX: `benchscale${W}-${k}-${Date.now()}` };
      const procs: ServerProc[] = [];
      try {
        const api = await startDocpipe('api', env);
        procs.push(api);
        for (let i = 0; i < W; i++) {
          const port = await freePort();
          procs.push(await startDocpipe('worker', { ...env, METRICS_PORT: String(port) }, await freePort()));
          await waitForPort(port, 120_000);
        }
        // Warm-up: ten documents per worker, so every process has loaded its models and parsers.
        const warm = await createProject(api.url, key, `warm-${k}`);
        await uploadAll(
          api.url,
          key,
          files
            .slice(0, 10 * W)
            .map((f) =>
              multipart(
                { project_id: warm, allow_duplicate: 'true' },
                { name: f.name, data: f.pdf, type: 'application/pdf' },
              ),
            ),
        );
        await waitTerminal(db, warm, 10 * W);

        const project = await createProject(api.url, key, `timed-${k}`);
        const bodies = files
          .slice(maxWarm, maxWarm + N)
          .map((f) =>
            multipart(
              { project_id: project, allow_duplicate: 'true' },
              { name: f.name, data: f.pdf, type: 'application/pdf' },
            ),
          );
        console.log(`${W} worker process${W > 1 ? 'es' : ''}: ${N} documents…`);
        const pids = procs.map((p) => p.child.pid!);
        const cpu0 = pids.map((p) => treeCpuSecs(p));
        const bench0 = process.cpuUsage();
        const load0 = loadavg()[0];
        const t0 = performance.now();
        await uploadAll(api.url, key, bodies);
        await waitTerminal(db, project, N);
        const secs = (performance.now() - t0) / 1000;
        const bench = process.cpuUsage(bench0);
        const server = pids.reduce((sum, p, i) => sum + cpuSpent(cpu0[i], treeCpuSecs(p)), 0);
        const { rows } = await db.query<{ ms: number; status: string }>(
          `SELECT extract(epoch FROM (coalesce(completed_at, updated_at) - created_at)) * 1000 AS ms, status FROM documents WHERE project_id = $1`,
          [project],
        );
        const ms = rows.map((r) => Number(r.ms));
        runs.push({
          workers: W,
          perMinute: (N / secs) * 60,
          p50: pct(ms, 50),
          p95: pct(ms, 95),
          failed: rows.filter((r) => r.status === 'failed').length,
          serverCpuMs: (server * 1000) / N,
          benchCpuMs: (bench.user + bench.system) / 1000 / N,
          load: `${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
        });
      } finally {
        for (const p of procs.reverse()) await p.stop();
      }
    }
  } finally {
    await db.end();
    await redis.stop();
    await pgdb.drop();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const med = WORKER_COUNTS.map((W) => {
    const rs = runs.filter((r) => r.workers === W);
    return {
      workers: W,
      perMinute: median(rs.map((r) => r.perMinute)),
      p50: median(rs.map((r) => r.p50)),
      p95: median(rs.map((r) => r.p95)),
      failed: rs.reduce((a, r) => a + r.failed, 0),
      serverCpuMs: median(rs.map((r) => r.serverCpuMs)),
      benchCpuMs: median(rs.map((r) => r.benchCpuMs)),
      load: rs.map((r) => r.load).join('; '),
    };
  });
  const one = med[0];
  console.log(
    `\nScale benchmark: ${N} two-page PDFs, 1 \`docpipe api\` + 1/2/3 \`docpipe worker\` processes (WORKER_CONCURRENCY=2 each), PostgreSQL, one Redis, this machine; ${rounds} round(s)${rounds > 1 ? ', medians (every run below)' : ''}\n`,
  );
  table(
    med.map((r) => ({
      workers: r.workers,
      'docs/min': Math.round(r.perMinute),
      'vs 1 worker': `${((r.perMinute / one.perMinute) * 100).toFixed(0)}%`,
      'upload→completed p50 ms': Math.round(r.p50),
      'p95 ms': Math.round(r.p95),
      'p50 vs 1 worker': `${((r.p50 / one.p50) * 100).toFixed(0)}%`,
      failed: r.failed,
      'server CPU ms/doc': round(r.serverCpuMs),
      'bench CPU ms/doc': round(r.benchCpuMs),
      'load avg (1 min) start → end': r.load,
    })),
  );
  if (rounds > 1) {
    console.log('\nevery run, in the order run:');
    table(
      runs.map((r) => ({
        workers: r.workers,
        'docs/min': Math.round(r.perMinute),
        'p50 ms': Math.round(r.p50),
        'p95 ms': Math.round(r.p95),
        'server CPU ms/doc': round(r.serverCpuMs),
        'load avg': r.load,
      })),
    );
  }
  console.log('\nserver CPU: the API and worker processes with their parser processes, user + system, per document');
}
