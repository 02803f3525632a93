// Shared helpers for the foundation integration tests. Actors here skip the password hash and
// the login endpoint (a signed access token for a fresh session is all most tests need), which
// keeps hundreds of requests per file fast and clear of the per-IP login limit.
import { randomBytes } from 'node:crypto';
import { expect, inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createDeps, type Deps } from '../../../src/container.js';
import { newId } from '../../../src/lib/ids.js';
import { createLogger } from '../../../src/lib/logger.js';
import { appDepsFrom, buildApp } from '../../../src/http/app.js';
import { signAccessToken } from '../../../src/modules/auth/jwt.js';
import type { Environment } from '../../../src/lib/scope.js';
import type { Plan, Role } from '../../../src/modules/orgs/orgs.types.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { DbKind } from '../../helpers/db.js';

/** `createTestApp`, kept as a name for these suites (the PGlite template cache now lives in test/helpers/db.ts). */
export async function foundationApp(kind: DbKind): Promise<TestApp> {
  return createTestApp(kind);
}

export const API = '/api/v1';

export interface QuickActor {
  orgId: string;
  userId: string;
  email: string;
  sessionId: string;
  accessToken: string;
  auth: { authorization: string };
}

/** Not a password hash at all: verification fails for every password (quick actors never log in). */
const NO_PASSWORD = '!';

/** A user (in a new organization unless `orgId` is given) with a live access token. */
export async function quickActor(
  t: TestApp,
  opts: { role?: Role; plan?: Plan; orgId?: string } = {},
): Promise<QuickActor> {
  const orgs = t.deps.repos.orgs;
  const orgId =
    opts.orgId ??
    (await orgs.insertOrg({ name: `Org ${randomBytes(4).toString('hex')}`, plan: opts.plan ?? 'enterprise' })).id;
  const email = `q${randomBytes(5).toString('hex')}@example.test`;
  const user = await orgs.insertUser({ orgId, email, passwordHash: NO_PASSWORD, role: opts.role ?? 'owner' });
  const sessionId = newId('fam');
  const accessToken = tokenFor(t, user.id, orgId, sessionId);
  return { orgId, userId: user.id, email, sessionId, accessToken, auth: { authorization: `Bearer ${accessToken}` } };
}

/** Signs an access token with the app's secret; `expOffsetSec` may be negative (expired). */
export function tokenFor(t: TestApp, userId: string, orgId: string, sessionId: string, expOffsetSec = 900): string {
  const iat = Math.floor(Date.now() / 1000);
  return signAccessToken(
    { sub: userId, org: orgId, sid: sessionId, typ: 'access', iat, exp: iat + expOffsetSec },
    t.config.JWT_SECRET,
  );
}

export interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
  remoteAddress?: string;
}

/** `app.inject` with the /api/v1 prefix added. */
export function call(app: FastifyInstance, c: Call): Promise<LightMyRequestResponse> {
  return app.inject({
    method: c.method ?? 'GET',
    url: `${API}${c.url}`,
    headers: c.headers,
    ...(c.payload !== undefined ? { payload: c.payload as object } : {}),
    ...(c.remoteAddress ? { remoteAddress: c.remoteAddress } : {}),
  });
}

export interface ErrorBody {
  code: string;
  message: string;
  details?: { field: string; message: string }[] & Record<string, unknown>;
  request_id: string;
}

/** Every error response: envelope shape, the code, and request_id equal to the X-Request-Id header. */
export function expectError(res: LightMyRequestResponse, status: number, code: string): ErrorBody {
  expect(res.statusCode, res.body).toBe(status);
  const b = res.json();
  expect(b.success).toBe(false);
  expect(b.error.code).toBe(code);
  expect(typeof b.error.message).toBe('string');
  expect(b.error.message.length).toBeGreaterThan(0);
  expect(b.error.request_id).toMatch(/^req_/);
  expect(res.headers['x-request-id']).toBe(b.error.request_id);
  return b.error as ErrorBody;
}

/** The `data` of a success envelope, after checking the status. */
export function dataOf(res: LightMyRequestResponse, status = 200): any {
  expect(res.statusCode, res.body).toBe(status);
  const b = res.json();
  expect(b.success).toBe(true);
  return b.data;
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/** Creates an API key through the API (as `actor`) and returns the full create response data. */
export async function makeKey(
  app: FastifyInstance,
  actor: { auth: Record<string, string> },
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const data = dataOf(
    await call(app, {
      method: 'POST',
      url: '/api-keys',
      headers: { ...actor.auth, ...headers },
      payload: { name: 'key', ...body },
    }),
    201,
  );
  return data as { id: string; key: string; environment: string; [k: string]: unknown };
}

/** Creates a project through the API and returns its data. */
export async function makeProject(
  app: FastifyInstance,
  auth: Record<string, string>,
  body: Record<string, unknown> = {},
) {
  return dataOf(
    await call(app, { method: 'POST', url: '/projects', headers: auth, payload: { name: 'Project', ...body } }),
    201,
  ) as { id: string; [k: string]: unknown };
}

export interface SecondApp {
  app: FastifyInstance;
  deps: Deps;
  close(): Promise<void>;
}

/**
 * Another API process in miniature: same config (so same Redis prefix and JWT secret), same
 * database object, same Redis server, but its own Fastify app, Redis connection and caches.
 */
export async function secondApp(t: TestApp): Promise<SecondApp> {
  const deps = await createDeps(t.config, {
    db: t.testDb.db,
    redisUrl: inject('redisUrl'),
    logger: createLogger({ level: 'silent', pretty: false }),
    migrate: false,
  });
  const app = await buildApp(appDepsFrom(deps));
  await app.ready();
  return {
    app,
    deps,
    async close() {
      await app.close();
      await deps.close();
    },
  };
}

/** Inserts a document row directly (the upload endpoint belongs to a later issue). */
export async function insertDocument(
  t: TestApp,
  row: {
    orgId: string;
    projectId: string;
    environment?: Environment;
    status?: string;
    classification?: string;
    sizeBytes?: number;
    pages?: number;
  },
): Promise<string> {
  const id = newId('doc');
  // Blobs are content-addressed: the storage key is the sha256 (no file behind it here).
  const sha = randomBytes(32).toString('hex');
  await t.testDb.db.query(
    `INSERT INTO documents (id, org_id, environment, project_id, filename, mime_type, size_bytes, sha256, storage_key, status, classification, page_count)
     VALUES ($1,$2,$3,$4,'a.pdf','application/pdf',$5,$6,$7,$8,$9,$10)`,
    [
      id,
      row.orgId,
      row.environment ?? 'live',
      row.projectId,
      row.sizeBytes ?? 100,
      sha,
      sha,
      row.status ?? 'uploaded',
      row.classification ? JSON.stringify({ type: row.classification, confidence: 0.9 }) : null,
      row.pages ?? null,
    ],
  );
  return id;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Setup wait, not a timing assertion: when fewer than `needSec` seconds are left in the current
 * fixed window (Redis clock), wait for the next one so a test's requests all land in one window.
 */
export async function windowHeadroom(t: { deps: Deps }, needSec = 8, windowSec = 60): Promise<void> {
  const [s, us] = await t.deps.redis.time();
  const now = Number(s) + Number(us) / 1e6;
  const left = windowSec - (now % windowSec);
  if (left < needSec) await sleep(left * 1000 + 100);
}

/** Parses `"name";r=3;t=41, …` into {name: {r, t}} (also works for RateLimit-Policy's q/w). */
export function parseRateLimit(header: string | string[] | number | undefined): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const item of String(header ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, ...params] = item.split(';');
    const fields: Record<string, number> = {};
    for (const p of params) {
      const [k, v] = p.split('=');
      fields[k] = Number(v);
    }
    out[name.replace(/"/g, '')] = fields;
  }
  return out;
}
