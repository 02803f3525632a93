// Builds the real app (real Redis, real database) for integration tests, with helpers to
// create organizations, users, sessions and API keys.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/container.js';
import { appDepsFrom, buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/lib/logger.js';
import type { Plan, Role } from '../../src/modules/orgs/orgs.types.js';
import { TEST_CLASSIFIER_CACHE_DIR } from './classifier-cache.js';
import { createTestDb, type DbKind, type TestDb } from './db.js';
import { installResponseCheck } from './openapi-check.js';

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  testDb: TestDb;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: `/tmp/docpipe-test-${randomBytes(4).toString('hex')}`,
      REDIS_PREFIX: `t${randomBytes(5).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      // Tests never reach a model hub; pipeline tests point EMBEDDING_MODEL_DIR at a generated model.
      // Its random weights make vectors without meaning: no nearest-neighbour vote in classification.
      ALLOW_MODEL_DOWNLOAD: 'false',
      EMBEDDING_MODEL: 'docpipe-test/tiny-bert',
      CLASSIFY_KNN: 'false',
      // The built-in classifier is trained once and shared by every test app (cache keyed by its version).
      CLASSIFIER_CACHE_DIR: TEST_CLASSIFIER_CACHE_DIR,
      ...overrides,
    },
    { persistSecrets: false },
  );
}

export async function createTestApp(kind: DbKind = 'pglite', overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  const testDb = await createTestDb(kind);
  const deps = await createDeps(config, {
    db: testDb.db,
    redisUrl: inject('redisUrl'),
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
  });
  const app = await buildApp(appDepsFrom(deps));
  // Every JSON answer is checked against the OpenAPI document (DOCPIPE_CHECK_RESPONSES=0 turns it off).
  if (process.env.DOCPIPE_CHECK_RESPONSES !== '0') installResponseCheck(app);
  await app.ready();
  return {
    app,
    deps,
    config,
    testDb,
    async close() {
      await app.close();
      await deps.close();
      await testDb.close();
    },
  };
}

export interface Actor {
  orgId: string;
  userId: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  /** Authorization header for the JWT session. */
  auth: { authorization: string };
}

let counter = 0;

/** A new organization (unless `orgName` names one) with a user of `role`, logged in. */
export async function createActor(
  t: TestApp,
  opts: { role?: Role; plan?: Plan; orgName?: string } = {},
): Promise<Actor> {
  const n = ++counter;
  const email = `user${n}-${randomBytes(3).toString('hex')}@example.test`;
  const password = 'correct horse battery';
  const { user, orgId } = await t.deps.services.orgs.createUser({
    email,
    password,
    orgName: opts.orgName ?? `Org ${n} ${randomBytes(3).toString('hex')}`,
    role: opts.role ?? 'owner',
    plan: opts.plan ?? 'enterprise',
  });
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  const data = res.json().data;
  return {
    orgId,
    userId: user.id,
    email,
    password,
    accessToken: data.accessToken,
    refreshToken: data.refreshToken,
    auth: { authorization: `Bearer ${data.accessToken}` },
  };
}

/** Creates an API key through the API and returns its secret. */
export async function createKey(
  t: TestApp,
  actor: Actor,
  body: Record<string, unknown> = {},
): Promise<{ id: string; key: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: actor.auth,
    payload: { name: 'test key', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`key creation failed: ${res.body}`);
  const data = res.json().data;
  return { id: data.id, key: data.key };
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

export function body(res: LightMyRequestResponse) {
  return res.json() as {
    success: boolean;
    data: any;
    // Present on a failure envelope (typed as present so that assertions read it directly).
    error: { code: string; message: string; details?: any; request_id: string };
    pagination?: any;
    message?: string;
  };
}
