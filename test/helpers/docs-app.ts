// The real app plus pipeline workers for the documents and reliability suites, with the knobs
// those suites need: any Redis URL (a private, restartable one), an existing database and config
// (a "restarted" service over the same data), and worker lock tuning. Start-up costs that do not
// change between tests are paid once per machine: the migrated PGlite data dir and the built-in
// classifier model are cached in the temp folder, keyed by their inputs.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/container.js';
import { createDb } from '../../src/db/client.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { packageRoot } from '../../src/lib/package-root.js';
import { createLogger } from '../../src/lib/logger.js';
import { STAGES, type Stage } from '../../src/modules/documents/documents.types.js';
import { startWorkers, type StartWorkersOptions, type WorkerHandle } from '../../workers/index.js';
import type { PipelineWorkerOptions } from '../../workers/pipeline.js';
import { testConfig } from './app.js';
import { primeBuiltinClassifier } from './classifier-cache.js';
import { createTestDb, type DbKind, type TestDb } from './db.js';
import { PIPELINE_QUEUES, tinyModelDir } from './pipeline.js';
import { cacheEntry, contentKey } from './test-cache.js';

let pgliteTemplate: Promise<string> | undefined;

/**
 * A migrated PGlite data dir on disk, keyed by the PGlite version and the migrations' contents
 * and shared by test processes: copying and opening it is about twice as fast as loading a dump
 * into memory.
 */
function pgliteTemplateDir(): Promise<string> {
  pgliteTemplate ??= (async () => {
    const parts = [pgliteVersion()];
    for (const m of loadMigrations()) parts.push(m.id, m.sql);
    return cacheEntry(`pglite-${contentKey(parts)}`, async (dir) => {
      const db = await createDb({ pgliteDir: dir });
      await migrate(db);
      await db.close();
    });
  })();
  return pgliteTemplate;
}

function pgliteVersion(): string {
  const pkg = join(packageRoot(), 'node_modules', '@electric-sql', 'pglite', 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** PGlite from a copy of the cached template; PostgreSQL through the shared helper (a private schema). */
export async function openTestDb(kind: DbKind): Promise<TestDb> {
  if (kind === 'postgres') return createTestDb('postgres');
  const dir = mkdtempSync(join(tmpdir(), 'docpipe-pglite-'));
  cpSync(await pgliteTemplateDir(), dir, { recursive: true });
  const db = await createDb({ pgliteDir: dir });
  return {
    db,
    kind,
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The built-in classifier trained from samples/ (primed by the global setup). */
export function builtinClassifierFile(): Promise<string> {
  return primeBuiltinClassifier();
}

/** A test config whose DATA_DIR already holds the trained built-in classifier. */
export async function docsConfig(env: Record<string, string> = {}): Promise<Config> {
  const config = testConfig({ EMBEDDING_MODEL_DIR: await tinyModelDir(), ...env });
  mkdirSync(join(config.dataDir, 'models'), { recursive: true });
  copyFileSync(await builtinClassifierFile(), join(config.dataDir, 'models', 'classifier-builtin.json'));
  return config;
}

/** Options for {@link createDocsApp}. */
export interface DocsAppOptions {
  /** Database kind for a new database. Default 'pglite'. Ignored when `testDb` is given. */
  kind?: DbKind;
  /** Reuse this database (a restart over the same data); it is not closed by `close()`. */
  testDb?: TestDb;
  /** Reuse this config (same DATA_DIR, Redis prefix, secrets); default a fresh {@link docsConfig}, whose DATA_DIR `close()` removes. */
  config?: Config;
  /** Environment overrides for a fresh config. */
  env?: Record<string, string>;
  /** Redis to use; default the suite's shared one. */
  redisUrl?: string;
  /** Start pipeline + maintenance workers now. Default true. */
  workers?: boolean;
  /** Lock tuning for the stage workers. Default: production values. */
  lock?: PipelineWorkerOptions;
  /** Run the maintenance schedulers and in-process sweeper as `docpipe start` does, with this timing. Default: off. */
  maintenance?: StartWorkersOptions['maintenance'];
}

export interface DocsApp {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  testDb: TestDb;
  /** Starts the workers (no-op when running). */
  startWorkers(): Promise<void>;
  /** Stops the workers, waiting at most `timeoutMs` for running jobs. */
  stopWorkers(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function createDocsApp(o: DocsAppOptions = {}): Promise<DocsApp> {
  const config = o.config ?? (await docsConfig(o.env));
  const ownDataDir = !o.config;
  const ownDb = !o.testDb;
  const testDb = o.testDb ?? (await openTestDb(o.kind ?? 'pglite'));
  const deps = await createDeps(config, {
    db: testDb.db,
    redisUrl: o.redisUrl ?? inject('redisUrl'),
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
  });
  const app = await buildApp(appDepsFrom(deps));
  await app.ready();
  let handle: WorkerHandle | undefined;
  const api: DocsApp = {
    app,
    deps,
    config,
    testDb,
    async startWorkers() {
      handle ??= await startWorkers(deps, {
        queues: PIPELINE_QUEUES,
        concurrency: 2,
        pipeline: o.lock,
        schedulers: !!o.maintenance,
        maintenance: o.maintenance,
      });
    },
    async stopWorkers(timeoutMs = 5_000) {
      const h = handle;
      handle = undefined;
      // A worker whose Redis went away can hang in its close: the test does not wait for it.
      await Promise.race([h?.close(timeoutMs), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    },
    async close() {
      await api.stopWorkers();
      await app.close();
      await deps.close();
      if (ownDb) await testDb.close();
      if (ownDataDir) rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
  if (o.workers !== false) await api.startWorkers();
  return api;
}

/** Polls `fn` until it returns a truthy value; throws with `what` after `timeoutMs`. */
export async function eventually<T>(
  fn: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Events of each type written for one document, e.g. {'document.uploaded': 1, …}. */
export async function eventCounts(deps: Deps, documentId: string): Promise<Record<string, number>> {
  const { rows } = await deps.db.query<{ type: string; n: number }>(
    `SELECT type, count(*) AS n FROM events WHERE data->>'documentId' = $1 GROUP BY type`,
    [documentId],
  );
  return Object.fromEntries(rows.map((r) => [r.type, Number(r.n)]));
}

/** stage_runs rows per stage for one document (all versions). */
export async function stageRunCounts(deps: Deps, documentId: string): Promise<Record<string, number>> {
  const { rows } = await deps.db.query<{ stage: string; n: number }>(
    'SELECT stage, count(*) AS n FROM stage_runs WHERE document_id = $1 GROUP BY stage',
    [documentId],
  );
  return Object.fromEntries(rows.map((r) => [r.stage, Number(r.n)]));
}

/** The pipeline's four stages, in order. */
export const ALL_STAGES: readonly Stage[] = STAGES;
