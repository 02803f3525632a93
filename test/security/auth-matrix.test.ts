// The authorization matrix: every authenticated operation in the OpenAPI document, for each role
// (viewer, member, admin, owner) and each kind of credential (session, live key, test key), is
// refused with 403 exactly when the role is below what the operation needs, and otherwise gets
// past the role check. Without a credential, or with a broken or expired one, every operation is
// a 401. Expected roles come from the product's rules below, not from the routes themselves; the
// OpenAPI document must state the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ROLES, roleAtLeast, type Role } from '../../src/modules/orgs/orgs.types.js';
import { bearer, quickActor, tokenFor } from '../integration/foundation/support.js';
import { SEGMENT_KIND } from './tenants.js';

/**
 * Viewers read; members also write documents, projects and templates; admins and owners also
 * manage API keys, webhooks and integrations (and push documents to them) and delete whole
 * projects (with their documents).
 */
function expectedRole(method: string, path: string): Role {
  const p = path.replace(/^\/api\/v1/, '');
  if (
    p.startsWith('/api-keys') ||
    p.startsWith('/webhooks') ||
    p.startsWith('/integrations/') ||
    p === '/documents/{id}/export'
  )
    return 'admin';
  if (p.startsWith('/pipeline') || (p.startsWith('/members') && method !== 'GET')) return 'admin';
  // Runs a template against a document and stores nothing: a read.
  if (p === '/templates/test') return 'viewer';
  if (method === 'DELETE' && p === '/projects/{id}') return 'admin';
  if (p === '/auth/logout' || method === 'GET') return 'viewer';
  return 'member';
}

interface Op {
  method: string;
  path: string;
  url: string;
  role: string | null;
  liveOnly: boolean;
  operatorOnly: boolean;
}

describe('authorization matrix', () => {
  let t: TestApp;
  let ops: Op[];
  beforeAll(async () => {
    t = await createTestApp('pglite', { ENTERPRISE_RATE_LIMIT_PER_MINUTE: '1000000' });
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { description?: string; security?: unknown[] }>>;
    };
    ops = Object.entries(doc.paths)
      .flatMap(([path, byMethod]) =>
        Object.entries(byMethod)
          .filter(([, op]) => !(Array.isArray(op.security) && op.security.length === 0))
          .map(([m, op]) => ({
            method: m.toUpperCase(),
            path,
            // Ids that exist nowhere: an allowed call ends in 404 (or 400) after the role check, with no side effects.
            url: path
              .split('/')
              .map((seg, i, all) =>
                /^\{\w+\}$/.test(seg)
                  ? `${(SEGMENT_KIND[all[i - 1]] ?? 'x').slice(0, 3).toLowerCase()}_00000000000000000000000000`
                  : seg,
              )
              .join('/'),
            role: /Requires the (\w+) role/.exec(op.description ?? '')?.[1] ?? null,
            liveOnly: /Live mode only\./.test(op.description ?? ''),
            // Shared queues: a second check after the role (this matrix's install has many organizations, none an operator).
            operatorOnly: /only an operator organization may/.test(op.description ?? ''),
          })),
      )
      // Logging out ends the session the matrix is using; it has its own tests.
      .filter((o) => o.path !== '/api/v1/auth/logout');
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (op: Op, headers: Record<string, string>) =>
    t.app.inject({
      method: op.method as 'GET',
      url: op.url,
      headers: {
        ...headers,
        ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
      },
      ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: '{}' }),
    });

  it('the OpenAPI document states the role each operation needs, and it is the rule above', () => {
    expect(ops.length).toBeGreaterThanOrEqual(60);
    const differs = ops
      .filter((o) => o.role !== expectedRole(o.method, o.path))
      .map((o) => `${o.method} ${o.path}: documented ${o.role}, rule ${expectedRole(o.method, o.path)}`);
    expect(differs).toEqual([]);
  });

  it('no credential, a malformed one, a forged or expired token: 401 on every operation', async () => {
    const owner = await quickActor(t);
    const expired = tokenFor(t, owner.userId, owner.orgId, owner.sessionId, -60);
    const forged = tokenFor(
      { ...t, config: { ...t.config, JWT_SECRET: 'x'.repeat(64) } } as TestApp,
      owner.userId,
      owner.orgId,
      owner.sessionId,
    );
    const wrong: string[] = [];
    for (const op of ops) {
      for (const [what, headers] of [
        ['none', {}],
        ['basic', { authorization: 'Basic dXNlcjpwYXNz' }],
        ['garbage', bearer('not-a-token')],
        ['expired', bearer(expired)],
        ['forged', bearer(forged)],
      ] as [string, Record<string, string>][]) {
        const res = await send(op, headers);
        // An expired token (one we signed) says so with its own code; everything else is UNAUTHORIZED.
        if (
          res.statusCode !== 401 ||
          res.json().error?.code !== (what === 'expired' ? 'TOKEN_EXPIRED' : 'UNAUTHORIZED')
        )
          wrong.push(`${what}: ${op.method} ${op.path} -> ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('each role, as a session, a live key and a test key: 403 exactly below the needed role', async () => {
    const owner = await quickActor(t);
    const wrong: string[] = [];
    let calls = 0;
    for (const role of ROLES) {
      const actor = role === 'owner' ? owner : await quickActor(t, { orgId: owner.orgId, role });
      // Keys act with their creator's role; made through the service since only admins may use the route.
      const scope = (environment: 'live' | 'test') => ({ orgId: owner.orgId, environment, userId: actor.userId });
      const live = await t.deps.services.apiKeys.create(scope('live'), { name: `${role} live` });
      const test = await t.deps.services.apiKeys.create(scope('test'), { name: `${role} test` });
      for (const [cred, headers] of [
        ['session', actor.auth],
        ['live key', bearer(live.key)],
        ['test key', bearer(test.key)],
      ] as const) {
        for (const op of ops) {
          const res = await send(op, headers);
          calls++;
          // Operations on what both modes share (members) refuse test-mode credentials like a role would.
          const allowed = roleAtLeast(role, expectedRole(op.method, op.path)) && !(op.liveOnly && cred === 'test key');
          const operatorRefusal =
            op.operatorOnly && res.statusCode === 403 && /queues are shared/.test(res.json().error?.message ?? '');
          const ok = allowed
            ? operatorRefusal || (res.statusCode !== 401 && res.statusCode !== 403 && res.statusCode < 500)
            : res.statusCode === 403 && res.json().error?.code === 'FORBIDDEN';
          if (!ok)
            wrong.push(
              `${role} ${cred}: ${op.method} ${op.path} -> ${res.statusCode} (${allowed ? 'allowed' : 'forbidden'}) ${res.body.slice(0, 100)}`,
            );
        }
      }
    }
    console.log(`auth matrix: ${calls} calls, ${ops.length} operations x ${ROLES.length} roles x 3 credentials`);
    expect(wrong).toEqual([]);
  });
});
