// `npm run bench -- api`: the API's request rate and tail latency against a bare Fastify ceiling,
// all servers in their own process, load from this process (autocannon, 50 connections).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitForPort } from '../helpers/net.js';
import { benchPostgres, benchRedis, load, seed, SECRETS, startDocpipe, table, type LoadResult } from './harness.js';

async function ceiling(): Promise<LoadResult> {
  const port = await freePort();
  const script = fileURLToPath(new URL('./bare-fastify.js', import.meta.url));
  const child = spawn(process.execPath, [script, String(port)], { stdio: 'ignore' });
  await waitForPort(port);
  try {
    return await load('bare Fastify constant (ceiling)', `http://127.0.0.1:${port}/`);
  } finally {
    child.kill('SIGTERM');
  }
}

export async function main(): Promise<void> {
  const redis = await benchRedis();
  const results: LoadResult[] = [];
  try {
    results.push(await ceiling());

    const dataDir = mkdtempSync(join(tmpdir(), 'docpipe-bench-api-'));
    const baseEnv = { ...SECRETS, REDIS_URL: redis.url, REDIS_PREFIX: 'benchapi', LOG_LEVEL: 'warn' };
    const liteEnv = { ...baseEnv, DATA_DIR: dataDir };
    const liteKey = (await seed(liteEnv)).key;
    const lite = await startDocpipe('api', liteEnv);
    try {
      const auth = { authorization: `Bearer ${liteKey}` };
      results.push(await load('GET /api/v1/health', `${lite.url}/api/v1/health`));
      results.push(await load('GET /api/v1/auth/me (API key)', `${lite.url}/api/v1/auth/me`, auth));
      results.push(await load('GET /api/v1/projects (API key, PGlite)', `${lite.url}/api/v1/projects`, auth));
    } finally {
      await lite.stop();
    }
    const liteRaw = await startDocpipe('api', { ...liteEnv, PROJECT_LIST_CACHE_SECONDS: '0' });
    try {
      results.push(await load('GET /api/v1/projects (API key, PGlite, list cache off)', `${liteRaw.url}/api/v1/projects`, { authorization: `Bearer ${liteKey}` }));
    } finally {
      await liteRaw.stop();
    }
    const info = await startDocpipe('api', { ...liteEnv, LOG_LEVEL: 'info' });
    try {
      results.push(await load('GET /api/v1/auth/me (API key, LOG_LEVEL=info)', `${info.url}/api/v1/auth/me`, { authorization: `Bearer ${liteKey}` }));
    } finally {
      await info.stop();
    }

    const pgdb = await benchPostgres();
    if (pgdb) {
      const pgEnv = { ...baseEnv, REDIS_PREFIX: 'benchapipg', DATABASE_URL: pgdb.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'docpipe-bench-api-pg-')) };
      const key = (await seed(pgEnv)).key;
      const srv = await startDocpipe('api', pgEnv);
      try {
        results.push(await load('GET /api/v1/projects (API key, PostgreSQL)', `${srv.url}/api/v1/projects`, { authorization: `Bearer ${key}` }));
      } finally {
        await srv.stop();
      }
      // The same list with the per-process cache off: every request runs the query.
      const raw = await startDocpipe('api', { ...pgEnv, PROJECT_LIST_CACHE_SECONDS: '0' });
      try {
        results.push(await load('GET /api/v1/projects (API key, PostgreSQL, list cache off)', `${raw.url}/api/v1/projects`, { authorization: `Bearer ${key}` }));
      } finally {
        await raw.stop();
        await pgdb.drop();
      }
    }
  } finally {
    await redis.stop();
  }
  const top = results[0].rps;
  console.log('\nAPI benchmark: 50 connections, 2 s warm-up, 10 s measured per row; servers LOG_LEVEL=warn unless noted\n');
  table(results.map((r) => ({
    endpoint: r.name, 'req/s': Math.round(r.rps), 'p50 ms': r.p50, 'p99 ms': r.p99, 'vs ceiling': `${((r.rps / top) * 100).toFixed(1)}%`, errors: r.errors + r.non2xx,
  })));
}
