// Shared pieces for benchmarks: a Redis, a throwaway PostgreSQL database, a docpipe server in a
// child process, and autocannon runs with their numbers.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import autocannon from 'autocannon';
import { startPrivateRedis } from '../helpers/redis-server.js';
import { freePort, waitForPort } from '../helpers/net.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/container.js';
import { migrate } from '../../src/db/migrate.js';
import { createOrgsRepository } from '../../src/modules/orgs/orgs.repository.js';
import { createOrgsService } from '../../src/modules/orgs/orgs.service.js';
import { createProjectsRepository } from '../../src/modules/projects/projects.repository.js';

export const CLI = fileURLToPath(new URL('../../src/cli.js', import.meta.url));

const scratch: string[] = [];
process.on('exit', () => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** A temporary directory removed when the benchmark process exits (data dirs reach ~100 MB). */
export function benchTmpDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

export async function benchRedis(): Promise<{ url: string; pid?: number; stop(): Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  const r = await startPrivateRedis();
  return { url: r.url, pid: r.pid(), stop: () => r.stop() };
}

/** A new database on the server named by DATABASE_URL (or the local default), dropped by `drop`. */
export async function benchPostgres(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `docpipe_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (err) {
    console.log(`PostgreSQL not reachable at ${base} (${(err as Error).message}); skipping PostgreSQL runs`);
    return null;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      // BENCH_KEEP_DB=1 leaves the database for a look afterwards (EXPLAIN on the loaded data).
      if (process.env.BENCH_KEEP_DB === '1') {
        console.log(`kept database ${name} (BENCH_KEEP_DB)`);
        return;
      }
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface ServerProc {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs `docpipe <role>` (compiled) with the given environment until `stop`. */
export async function startDocpipe(
  role: 'api' | 'start' | 'worker',
  env: Record<string, string>,
  port?: number,
): Promise<ServerProc> {
  const p = port ?? (await freePort());
  // BENCH_NODE_ARGS passes flags to the server process only (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, CLI, role], {
    env: { ...process.env, PORT: String(p), HOST: '127.0.0.1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (role !== 'worker') await waitForPort(p, 60_000);
  return {
    url: `http://127.0.0.1:${p}`,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      await new Promise<void>((r) => {
        child.once('exit', () => r());
        child.kill('SIGTERM');
      });
    },
  };
}

/** Parent pid, command name and CPU seconds (user + system, all threads) from a /proc/<pid>/stat text. */
function parseStat(text: string): { ppid: number; name: string; cpu: number } {
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    ppid: Number(rest[1]),
    name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')),
    cpu: (Number(rest[11]) + Number(rest[12])) / 100, // utime, stime in clock ticks (100/s on Linux)
  };
}

/** CPU seconds (user + system, all threads) a process has used so far. */
export function cpuSecs(pid: number): number {
  return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpu;
}

/** Every live process as [pid, parent pid, command name, CPU seconds]. */
function processTable(): [number, number, string, number][] {
  const out: [number, number, string, number][] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const { ppid, name, cpu } = parseStat(readFileSync(`/proc/${d}/stat`, 'utf8'));
      out.push([Number(d), ppid, name, cpu]);
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

/**
 * CPU seconds of each live process in `root`'s tree, by pid: the root (unless `withRoot` is
 * false) and its descendants (parser and expression processes), leaving out `exclude` and theirs
 * (the bench's own servers when it measures its floor's parser process).
 */
export function treeCpuSecs(
  root: number,
  opts: { withRoot?: boolean; exclude?: readonly number[] } = {},
): Map<number, number> {
  const table = processTable();
  const kids = new Map<number, number[]>();
  for (const [p, pp] of table) kids.set(pp, [...(kids.get(pp) ?? []), p]);
  const cpu = new Map(table.map(([p, , , c]) => [p, c]));
  const out = new Map<number, number>();
  if (opts.withRoot !== false && cpu.has(root)) out.set(root, cpu.get(root)!);
  const todo = [...(kids.get(root) ?? [])];
  while (todo.length) {
    const p = todo.pop()!;
    if (opts.exclude?.includes(p)) continue;
    out.set(p, cpu.get(p) ?? 0);
    todo.push(...(kids.get(p) ?? []));
  }
  return out;
}

/** CPU seconds of each live process named `postgres`: the local server a bench talks to. */
export function postgresCpuSecs(): Map<number, number> {
  return new Map(
    processTable()
      .filter(([, , n]) => n === 'postgres')
      .map(([p, , , c]) => [p, c]),
  );
}

/**
 * CPU seconds spent between two readings of the same processes. One started in between counts
 * whole; one that ended in between (a recycled parser process) is missed for its last stretch,
 * so this is a slight underestimate.
 */
export function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let s = 0;
  for (const [pid, v] of after) s += v - (before.get(pid) ?? 0);
  return s;
}

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU microseconds per request during the measured run, when the pids were given. */
  cpuUs?: { server: number; redis: number; loadgen: number };
}

/**
 * Warm-up, then a measured autocannon run. With `pids`, also the CPU each side spent per
 * request (server, Redis, this load generator): on two shared cores that says where a lower
 * rate comes from.
 */
export async function load(
  name: string,
  url: string,
  headers: Record<string, string> = {},
  opts: { connections?: number; seconds?: number; warmup?: number; pids?: { server?: number; redis?: number } } = {},
): Promise<LoadResult> {
  const connections = opts.connections ?? 50;
  await autocannon({ url, headers, connections, duration: opts.warmup ?? 2 });
  const { server, redis } = opts.pids ?? {};
  const s0 = server ? cpuSecs(server) : NaN;
  const r0 = redis ? cpuSecs(redis) : NaN;
  const l0 = process.cpuUsage();
  const r = await autocannon({ url, headers, connections, duration: opts.seconds ?? 10 });
  const lu = process.cpuUsage(l0);
  const n = Math.max(1, r.requests.total);
  const cpuUs = opts.pids
    ? {
        server: server ? ((cpuSecs(server) - s0) * 1e6) / n : NaN,
        redis: redis ? ((cpuSecs(redis) - r0) * 1e6) / n : NaN,
        loadgen: (lu.user + lu.system) / n,
      }
    : undefined;
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    cpuUs,
  };
}

export function table(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(width[i])).join('  ');
  console.log(line(cols));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
}

export const SECRETS = { JWT_SECRET: 'b'.repeat(40), ENCRYPTION_KEY: 'c'.repeat(40) };
const noStamps = { read: async () => [], bump: async () => undefined, key: () => '' };

/** Seeds an enterprise org (limit high enough not to interfere), 20 projects and an API key. */
export async function seed(
  env: Record<string, string>,
  opts: { projects?: number } = {},
): Promise<{ key: string; projectId: string }> {
  const config = loadConfig({ ...env, ...SECRETS, NODE_ENV: 'production' });
  const db = await openDatabase(config);
  await migrate(db);
  const orgs = createOrgsService({ db, repo: createOrgsRepository(db), stamps: noStamps });
  const { user, orgId } = await orgs.createUser({
    email: 'bench@example.test',
    password: 'benchmark-password',
    orgName: 'Bench',
    role: 'owner',
    plan: 'enterprise',
  });
  await createOrgsRepository(db).updateOrg(orgId, { rateLimitPerMinute: 1_000_000_000 });
  const projects = createProjectsRepository(db);
  let projectId = '';
  for (let i = 0; i < (opts.projects ?? 20); i++)
    projectId = (
      await projects.insert(
        { orgId, environment: 'live' },
        { name: `Project ${i}`, description: `Bench project number ${i}` },
      )
    ).id;
  const key = await orgs.createApiKeyFor({ email: user.email, name: 'bench', environment: 'live' });
  await db.close();
  return { key: key.key, projectId };
}
