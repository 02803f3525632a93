// The real app with the workflow engine, the Sheets export (against the fake Google server) and
// webhook delivery wired by the container, plus the workers of the `workflows`, `export` and
// `webhooks` queues and the `events` role (the outbox relay, which starts document-triggered runs).
//
// No static import of vitest here: the benchmark (plain Node, compiled) uses it too.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/container.js';
import type { Db } from '../../src/db/client.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/lib/logger.js';
import type { SheetsModuleOptions } from '../../src/modules/integrations/sheets/index.js';
import type { WorkflowsModuleOptions } from '../../src/modules/workflows/index.js';
import { noJitter } from '../../src/modules/webhooks/schedule.js';
import { startWorkers, type WorkerHandle } from '../../workers/index.js';
import { createTestDb, type DbKind, type TestDb } from './db.js';
import { TEST_CLASSIFIER_CACHE_DIR } from './classifier-cache.js';
import { startFakeGoogle, type FakeGoogle } from './fake-google.js';
import { FAST_SHEETS } from './sheets-harness.js';

export interface WorkflowStack {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  /** The environment the config was loaded from (a worker process loads the same). */
  env: Record<string, string>;
  testDb: TestDb;
  google: FakeGoogle;
  stopWorkers(): Promise<void>;
  startWorkers(): Promise<void>;
  close(): Promise<void>;
}

export interface WorkflowStackOptions {
  redisUrl: string;
  kind?: DbKind;
  /** An open, migrated database instead of a new test database (benchmarks). */
  db?: Db;
  env?: Record<string, string>;
  module?: WorkflowsModuleOptions;
  /** Start the workers. Default true. */
  workers?: boolean;
  /** Own the schedulers (re-assertion). Default false. */
  schedulers?: boolean;
  /** Sheets options over the test-speed ones (FAST_SHEETS); the benchmark restores the defaults' flush period. */
  sheets?: SheetsModuleOptions;
}

/** Test-speed defaults: short locks and sweeps. */
export const FAST_WORKFLOWS: WorkflowsModuleOptions = {
  lockDurationMs: 5_000,
  stalledIntervalMs: 1_000,
  sweepIntervalMs: 0,
  staleMs: 2_000,
  slotWaitMs: 100,
  reassertIntervalMs: 60_000,
  evaluator: { timeoutMs: 500, processes: 1 },
};

export function workflowEnv(google: FakeGoogle, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: join(tmpdir(), `docpipe-wf-${randomBytes(4).toString('hex')}`),
    REDIS_PREFIX: `t${randomBytes(5).toString('hex')}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ALLOW_MODEL_DOWNLOAD: 'false',
    EMBEDDING_MODEL: 'docpipe-test/tiny-bert',
    GOOGLE_API_ROOT_URL: google.rootUrl,
    GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
    CLASSIFIER_CACHE_DIR: TEST_CLASSIFIER_CACHE_DIR,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WORKFLOW_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_DELAYS: '1,1,1,1,1',
    WEBHOOK_TIMEOUT_MS: '2000',
    ...extra,
  };
}

export async function createWorkflowStack(opts: WorkflowStackOptions): Promise<WorkflowStack> {
  const google = await startFakeGoogle();
  const env = workflowEnv(google, opts.env);
  const config = loadConfig(env, { persistSecrets: false });
  const testDb: TestDb = opts.db
    ? { db: opts.db, kind: opts.kind ?? 'pglite', close: async () => undefined }
    : await createTestDb(opts.kind ?? 'pglite');
  const deps = await createDeps(config, {
    db: testDb.db,
    redisUrl: opts.redisUrl,
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
    sheets: { ...FAST_SHEETS, ...opts.sheets },
    events: { relayIntervalMs: 250 },
    webhooks: { jitter: noJitter, sweepIntervalMs: 250, sweepGraceMs: 2000, stalledIntervalMs: 500, fairness: false },
    workflows: { ...FAST_WORKFLOWS, ...opts.module },
  });
  const app = await buildApp(appDepsFrom(deps));
  await app.ready();
  const start = () =>
    startWorkers(deps, {
      concurrency: 2,
      queues: ['export', 'webhooks', 'workflows', 'events'],
      schedulers: opts.schedulers ?? false,
      exportConcurrency: 4,
      webhooks: { concurrency: 10 },
    });
  let workers: WorkerHandle | null = opts.workers === false ? null : await start();
  return {
    app,
    deps,
    config,
    env,
    testDb,
    google,
    async stopWorkers() {
      await workers?.close(2000);
      workers = null;
    },
    async startWorkers() {
      workers ??= await start();
    },
    async close() {
      await workers?.close(2000);
      for (const name of ['export', 'webhooks', 'workflows'] as const)
        await deps.queues
          .get(name)
          .obliterate({ force: true })
          .catch(() => undefined);
      await app.close();
      await deps.close();
      await testDb.close();
      await google.close();
    },
  };
}

/** createWorkflowStack with the test run's Redis (vitest only). */
export async function createWorkflowTestApp(opts: Omit<WorkflowStackOptions, 'redisUrl'> = {}): Promise<WorkflowStack> {
  const { inject } = await import('vitest');
  return createWorkflowStack({ ...opts, redisUrl: inject('redisUrl') });
}
