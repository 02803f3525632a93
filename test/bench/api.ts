// `npm run bench -- api`: the API's request rate and tail latency against a bare Fastify ceiling,
// all servers in their own process, load from this process (autocannon, 50 connections).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, waitForPort } from '../helpers/net.js';
import {
  benchPostgres,
  benchRedis,
  benchTmpDir,
  load,
  seed,
  SECRETS,
  startDocpipe,
  table,
  type LoadResult,
  type ServerProc,
} from './harness.js';

const CEILING = 'bare Fastify constant (ceiling)';

async function ceiling(name: string): Promise<LoadResult> {
  const port = await freePort();
  const script = fileURLToPath(new URL('./bare-fastify.js', import.meta.url));
  const child = spawn(process.execPath, [script, String(port)], { stdio: 'ignore' });
  await waitForPort(port);
  try {
    return await load(name, `http://127.0.0.1:${port}/`, {}, { pids: { server: child.pid } });
  } finally {
    child.kill('SIGTERM');
  }
}

/** `npm run bench -- api auth` measures only the ceiling and `/auth/me` (for quick A/B runs). */
export async function main(args: string[] = []): Promise<void> {
  const redis = await benchRedis();
  const results: LoadResult[] = [];
  const pairs: { ceiling: LoadResult; auth: LoadResult }[] = [];
  try {
    await measure(results, pairs, redis, args.includes('auth'));
  } finally {
    await redis.stop();
  }
  // The ceiling is measured first and last; ratios are taken against the higher of the two, so a
  // slow moment of the machine during one ceiling run cannot flatter the others.
  const top = Math.max(...results.filter((r) => r.name.startsWith(CEILING)).map((r) => r.rps));
  const us = (x?: number) => (x === undefined || Number.isNaN(x) ? '-' : String(Math.round(x)));
  console.log(
    '\nAPI benchmark: 50 connections, 2 s warm-up, 10 s measured per row; servers LOG_LEVEL=warn unless noted;\nratios against the higher of the two ceiling runs (first and last)\n',
  );
  table(
    results.map((r) => ({
      endpoint: r.name,
      'req/s': Math.round(r.rps),
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'vs ceiling': `${((r.rps / top) * 100).toFixed(1)}%`,
      errors: r.errors + r.non2xx,
      'server µs/req': us(r.cpuUs?.server),
      'Redis µs/req': us(r.cpuUs?.redis),
      'loadgen µs/req': us(r.cpuUs?.loadgen),
    })),
  );
  console.log(
    '\nµs/req: CPU (user + system, all threads) each process spent per request in the measured run; all three share the two cores.',
  );
  if (pairs.length) {
    // This machine's speed drifts over minutes; back-to-back pairs see the same machine.
    console.log('\n/auth/me (API key) measured right after a ceiling run, in pairs:\n');
    const ratios = pairs.map((p) => p.auth.rps / p.ceiling.rps);
    table(
      pairs.map((p, i) => ({
        pair: i + 1,
        'ceiling req/s': Math.round(p.ceiling.rps),
        '/auth/me req/s': Math.round(p.auth.rps),
        'p99 ms': p.auth.p99,
        ratio: `${(ratios[i] * 100).toFixed(1)}%`,
      })),
    );
    console.log(`\nmedian /auth/me vs ceiling over ${pairs.length} pairs: ${(median(ratios) * 100).toFixed(1)}%`);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const PAIRS = 3;

async function measure(
  results: LoadResult[],
  pairs: { ceiling: LoadResult; auth: LoadResult }[],
  redis: { url: string; pid?: number },
  authOnly: boolean,
): Promise<void> {
  const pids = (p: ServerProc) => ({ pids: { server: p.child.pid, redis: redis.pid } });
  results.push(await ceiling(`${CEILING}, first`));
  try {
    await docpipeRows(results, pairs, redis, pids, authOnly);
  } finally {
    results.push(await ceiling(`${CEILING}, last`));
  }
}

async function docpipeRows(
  results: LoadResult[],
  pairs: { ceiling: LoadResult; auth: LoadResult }[],
  redis: { url: string },
  pids: (p: ServerProc) => { pids: { server?: number; redis?: number } },
  authOnly: boolean,
): Promise<void> {
  const dataDir = benchTmpDir('docpipe-bench-api-');
  const baseEnv = { ...SECRETS, REDIS_URL: redis.url, REDIS_PREFIX: 'benchapi', LOG_LEVEL: 'warn' };
  const liteEnv = { ...baseEnv, DATA_DIR: dataDir };
  const liteKey = (await seed(liteEnv)).key;
  const lite = await startDocpipe('api', liteEnv);
  try {
    const auth = { authorization: `Bearer ${liteKey}` };
    if (!authOnly) results.push(await load('GET /api/v1/health', `${lite.url}/api/v1/health`, {}, pids(lite)));
    results.push(await load('GET /api/v1/auth/me (API key)', `${lite.url}/api/v1/auth/me`, auth, pids(lite)));
    for (let i = 0; i < PAIRS; i++) {
      const c = await ceiling(`${CEILING}, pair ${i + 1}`);
      pairs.push({ ceiling: c, auth: await load('GET /api/v1/auth/me (API key)', `${lite.url}/api/v1/auth/me`, auth) });
    }
    if (authOnly) return;
    results.push(await load('GET /api/v1/projects (API key, PGlite)', `${lite.url}/api/v1/projects`, auth, pids(lite)));
  } finally {
    await lite.stop();
  }
  const liteRaw = await startDocpipe('api', { ...liteEnv, PROJECT_LIST_CACHE_SECONDS: '0' });
  try {
    results.push(
      await load(
        'GET /api/v1/projects (API key, PGlite, list cache off)',
        `${liteRaw.url}/api/v1/projects`,
        { authorization: `Bearer ${liteKey}` },
        pids(liteRaw),
      ),
    );
  } finally {
    await liteRaw.stop();
  }
  const info = await startDocpipe('api', { ...liteEnv, LOG_LEVEL: 'info' });
  try {
    results.push(
      await load(
        'GET /api/v1/auth/me (API key, LOG_LEVEL=info)',
        `${info.url}/api/v1/auth/me`,
        { authorization: `Bearer ${liteKey}` },
        pids(info),
      ),
    );
  } finally {
    await info.stop();
  }

  const pgdb = await benchPostgres();
  if (pgdb) {
    const pgEnv = {
      ...baseEnv,
      REDIS_PREFIX: 'benchapipg',
      DATABASE_URL: pgdb.url,
      DATA_DIR: benchTmpDir('docpipe-bench-api-pg-'),
    };
    const key = (await seed(pgEnv)).key;
    const srv = await startDocpipe('api', pgEnv);
    try {
      results.push(
        await load(
          'GET /api/v1/projects (API key, PostgreSQL)',
          `${srv.url}/api/v1/projects`,
          { authorization: `Bearer ${key}` },
          pids(srv),
        ),
      );
    } finally {
      await srv.stop();
    }
    // The same list with the per-process cache off: every request runs the query.
    const raw = await startDocpipe('api', { ...pgEnv, PROJECT_LIST_CACHE_SECONDS: '0' });
    try {
      results.push(
        await load(
          'GET /api/v1/projects (API key, PostgreSQL, list cache off)',
          `${raw.url}/api/v1/projects`,
          { authorization: `Bearer ${key}` },
          pids(raw),
        ),
      );
    } finally {
      await raw.stop();
      await pgdb.drop();
    }
  }
}
