// The real app with the reports module wired by the container and (unless told otherwise) the
// `reports` worker role from the worker table, on real Redis and a test database. Extra worker
// sets (a second "process") can be started against the same container.
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/container.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/lib/logger.js';
import type { ReportsModuleOptions } from '../../src/modules/reports/index.js';
import { startWorkers, type WorkerHandle } from '../../workers/index.js';
import { testConfig } from './app.js';
import { installResponseCheck } from './openapi-check.js';
import { createTestDb, type DbKind, type TestDb } from './db.js';

export interface ReportsStack {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  testDb: TestDb;
  /** Starts one more set of `reports` workers (another process, as far as BullMQ can tell). */
  startWorkers(opts?: { schedulers?: boolean }): Promise<WorkerHandle>;
  stopWorkers(): Promise<void>;
  close(): Promise<void>;
}

/** Test-speed defaults: short locks, no timers (tests call the sweep themselves). */
export const FAST_REPORTS: ReportsModuleOptions = {
  lockDurationMs: 5_000,
  stalledIntervalMs: 1_000,
  sweepIntervalMs: 0,
  staleMs: 1_000,
  overdueGraceMs: 1_000,
  batchSize: 2,
};

export async function createReportsStack(
  opts: { kind?: DbKind; workers?: boolean; schedulers?: boolean; module?: ReportsModuleOptions } = {},
): Promise<ReportsStack> {
  const config = testConfig();
  const testDb = await createTestDb(opts.kind ?? 'pglite');
  const deps = await createDeps(config, {
    db: testDb.db,
    redisUrl: inject('redisUrl'),
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
    reports: { ...FAST_REPORTS, ...opts.module },
  });
  const app = await buildApp(appDepsFrom(deps));
  // Every JSON answer checked against the OpenAPI document, like the other test apps.
  if (process.env.DOCPIPE_CHECK_RESPONSES !== '0') installResponseCheck(app);
  await app.ready();
  const running: WorkerHandle[] = [];
  const start = async (o: { schedulers?: boolean } = {}) => {
    const w = await startWorkers(deps, {
      concurrency: 1,
      queues: ['reports'],
      schedulers: o.schedulers ?? opts.schedulers ?? false,
    });
    running.push(w);
    return w;
  };
  if (opts.workers !== false) await start();
  return {
    app,
    deps,
    config,
    testDb,
    startWorkers: start,
    async stopWorkers() {
      await Promise.all(running.splice(0).map((w) => w.close(2000)));
    },
    async close() {
      await Promise.all(running.splice(0).map((w) => w.close(2000)));
      await deps.queues
        .get('reports')
        .obliterate({ force: true })
        .catch(() => undefined);
      await app.close();
      await deps.close();
      await testDb.close();
    },
  };
}

/** Waits (counted passes, so it also works under a fake clock) until `fn` returns something truthy. */
export async function until<T>(
  fn: () => Promise<T | false | null | undefined>,
  what: string,
  passes = 600,
): Promise<T> {
  for (let i = 0; i < passes; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
