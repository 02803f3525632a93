// The real app wired with the Sheets export module against the fake Google server: createDeps
// (with the test's tuning of the module), buildApp, and startWorkers with the export role (and
// the pipeline roles when asked), as `docpipe start` does.
//
// No static import of vitest here: the benchmark (plain Node, compiled) uses createSheetsStack.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/container.js';
import type { Db } from '../../src/db/client.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { newId } from '../../src/lib/ids.js';
import { createLogger } from '../../src/lib/logger.js';
import { STAGES } from '../../src/modules/documents/documents.types.js';
import { type SheetsModule, type SheetsModuleOptions } from '../../src/modules/integrations/sheets/index.js';
import { startWorkers, type WorkerHandle } from '../../workers/index.js';
import { createTestDb, type DbKind, type TestDb } from './db.js';
import { startFakeGoogle, type FakeGoogle } from './fake-google.js';
import { generateTinyModel } from './tiny-model.js';
import { TEST_CLASSIFIER_CACHE_DIR } from './classifier-cache.js';

export interface SheetsStack {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  testDb: TestDb;
  google: FakeGoogle;
  sheets: SheetsModule;
  /** Stops the workers (pipeline and export); jobs stay queued. */
  stopWorkers(): Promise<void>;
  /** Starts them again (no-op when running). */
  startWorkers(): Promise<void>;
  close(): Promise<void>;
}

export interface SheetsStackOptions {
  redisUrl: string;
  kind?: DbKind;
  /** An existing database instead of a new test database. */
  db?: Db;
  /** Config overrides (strings, as in the environment). */
  env?: Record<string, string>;
  module?: SheetsModuleOptions;
  /** Run the pipeline stage workers too (uploads go all the way to extraction). Default false. */
  pipeline?: boolean;
  /** Start workers. Default true. */
  workers?: boolean;
  /** Export job concurrency. Default 8. */
  exportConcurrency?: number;
  /** Use this fake instead of starting one (closed by the caller). */
  google?: FakeGoogle;
}

/** Test-speed defaults: short flush period, fast retries. */
export const FAST_SHEETS: SheetsModuleOptions = {
  flushDelayMs: 50,
  jobAttempts: 5,
  jobBackoffMs: 50,
  sweepIntervalMs: 0,
  flush: { retryBaseMs: 100, retryMaxMs: 2000 },
};

let modelDir: Promise<string> | undefined;
const tinyModel = () => {
  modelDir ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docpipe-model-'));
    await generateTinyModel(dir);
    return dir;
  })();
  return modelDir;
};

export async function createSheetsStack(opts: SheetsStackOptions): Promise<SheetsStack> {
  const google = opts.google ?? (await startFakeGoogle());
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: join(tmpdir(), `docpipe-sheets-${randomBytes(4).toString('hex')}`),
      REDIS_PREFIX: `t${randomBytes(5).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      ALLOW_MODEL_DOWNLOAD: 'false',
      EMBEDDING_MODEL: 'docpipe-test/tiny-bert',
      CLASSIFY_KNN: 'false',
      CLASSIFIER_CACHE_DIR: TEST_CLASSIFIER_CACHE_DIR,
      GOOGLE_API_ROOT_URL: google.rootUrl,
      GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
      ...(opts.pipeline ? { EMBEDDING_MODEL_DIR: await tinyModel() } : {}),
      ...opts.env,
    },
    { persistSecrets: false },
  );
  const testDb: TestDb = opts.db
    ? { db: opts.db, kind: opts.kind ?? 'pglite', close: async () => undefined }
    : await createTestDb(opts.kind ?? 'pglite');
  // The container wires the Sheets module (routes and its outbox consumer); tests tune it.
  const deps = await createDeps(config, {
    db: testDb.db,
    redisUrl: opts.redisUrl,
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
    sheets: { ...FAST_SHEETS, ...opts.module, flush: { ...FAST_SHEETS.flush, ...opts.module?.flush } },
  });
  const sheets = deps.sheets;
  const app = await buildApp(appDepsFrom(deps));
  await app.ready();
  // `events`: the outbox relay hands document.extracted events to the Sheets consumer.
  const queues = opts.pipeline ? [...STAGES, 'maintenance', 'export', 'events'] : ['export', 'events'];
  const start = () =>
    startWorkers(deps, { concurrency: 2, queues, schedulers: false, exportConcurrency: opts.exportConcurrency ?? 8 });
  let workers: WorkerHandle | null = opts.workers === false ? null : await start();
  return {
    app,
    deps,
    config,
    testDb,
    google,
    sheets,
    async stopWorkers() {
      await workers?.close(2000);
      workers = null;
    },
    async startWorkers() {
      workers ??= await start();
    },
    async close() {
      await workers?.close(2000);
      for (const name of ['export', 'parse', 'embed', 'classify', 'extract'] as const) {
        await deps.queues
          .get(name)
          .obliterate({ force: true })
          .catch(() => undefined);
      }
      await app.close();
      await deps.close();
      await testDb.close();
      if (!opts.google) await google.close();
    },
  };
}

/** createSheetsStack with the test run's Redis (vitest only). */
export async function createSheetsTestApp(opts: Omit<SheetsStackOptions, 'redisUrl'> = {}): Promise<SheetsStack> {
  const { inject } = await import('vitest');
  return createSheetsStack({ ...opts, redisUrl: inject('redisUrl') });
}

let keyPair: { publicKey: string; privateKey: string } | undefined;

/** A service-account key file (one RSA key per process) registered with the fake under `email`. */
export function serviceAccountKey(
  google: FakeGoogle,
  email = `exporter-${randomBytes(3).toString('hex')}@docpipe-test.iam.gserviceaccount.com`,
) {
  keyPair ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  google.registerServiceAccount(email, keyPair.publicKey);
  return {
    type: 'service_account',
    project_id: 'docpipe-test',
    private_key_id: 'k1',
    private_key: keyPair.privateKey,
    client_email: email,
    client_id: '1234567890',
    token_uri: 'https://oauth2.googleapis.com/token',
  };
}

/** A new organization and project, without going through HTTP. */
export async function createOrgAndProject(
  deps: Deps,
  name = 'Sheets bench',
): Promise<{ orgId: string; projectId: string; scope: { orgId: string; environment: 'live' } }> {
  const { orgId } = await deps.services.orgs.createUser({
    email: `owner-${randomBytes(4).toString('hex')}@example.test`,
    password: 'correct horse battery',
    orgName: `${name} ${randomBytes(3).toString('hex')}`,
    role: 'owner',
    plan: 'enterprise',
  });
  const scope = { orgId, environment: 'live' as const };
  const project = (await deps.services.projects.create(scope, { name })) as { id: string };
  return { orgId, projectId: project.id, scope };
}

export interface InsertedDoc {
  id: string;
  version: number;
}

/**
 * Inserts documents that look extracted (status completed, classification and fields set)
 * straight into the database: what the pipeline would leave behind, without running it.
 */
export async function insertExtractedDocuments(
  db: Db,
  at: { orgId: string; projectId: string; environment?: 'live' | 'test' },
  count: number,
  make: (i: number) => {
    filename?: string;
    classification?: Record<string, unknown> | null;
    fields?: Record<string, unknown> | null;
  } = () => ({}),
): Promise<InsertedDoc[]> {
  const out: InsertedDoc[] = [];
  for (let start = 0; start < count; start += 500) {
    const n = Math.min(500, count - start);
    const ids: string[] = [];
    const names: string[] = [];
    const shas: string[] = [];
    const cls: string[] = [];
    const fields: string[] = [];
    for (let i = start; i < start + n; i++) {
      const m = make(i);
      ids.push(newId('doc'));
      names.push(m.filename ?? `invoice-${i}.pdf`);
      shas.push(randomBytes(32).toString('hex'));
      cls.push(
        JSON.stringify(
          m.classification === undefined ? { type: 'invoice', confidence: 0.93, method: 'model' } : m.classification,
        ),
      );
      fields.push(
        JSON.stringify(
          m.fields === undefined
            ? {
                invoice_number: { value: `INV-${String(i).padStart(5, '0')}`, confidence: 0.9, method: 'label' },
                total: { value: 100 + i / 100, confidence: 0.9, method: 'label' },
                invoice_date: { value: '2024-03-05', confidence: 0.8, method: 'label' },
              }
            : m.fields,
        ),
      );
    }
    await db.query(
      `INSERT INTO documents (id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key, source, status,
         classification, fields, version, pipeline, parsed_at, classified_at, extracted_at, completed_at)
       SELECT v.id, $1, $2, $3, v.name, 'application/pdf', 1234, v.sha, 'sha256/' || v.sha, 'upload', 'completed',
         v.cls::jsonb, v.fields::jsonb, 1, '{"stages":["parse","embed","classify","extract"],"current":null}'::jsonb, now(), now(), now(), now()
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS v(id, name, sha, cls, fields)`,
      [at.orgId, at.environment ?? 'live', at.projectId, ids, names, shas, cls, fields],
    );
    out.push(...ids.map((id) => ({ id, version: 1 })));
  }
  return out;
}

/** Polls `fn` until it returns a truthy value; throws with `what` after `timeoutMs`. */
export async function eventually<T>(
  fn: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
