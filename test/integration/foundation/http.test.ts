// Envelope, error mapping, request ids, system endpoints and the OpenAPI document.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../src/lib/package-root.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDeps } from '../../../src/container.js';
import { appDepsFrom, buildApp } from '../../../src/http/app.js';
import { createLogger } from '../../../src/lib/logger.js';
import { API, call, expectError, quickActor, foundationApp, type QuickActor } from './support.js';

describe.each(dbKinds())('HTTP conventions (%s)', (kind) => {
  let t: TestApp;
  let owner: QuickActor;
  beforeAll(async () => {
    t = await foundationApp(kind);
    owner = await quickActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('unknown routes get a 404 envelope, with or without credentials', async () => {
    expectError(await call(t.app, { url: '/nope' }), 404, 'NOT_FOUND');
    expectError(await call(t.app, { url: '/projects/p1/nope', headers: owner.auth }), 404, 'NOT_FOUND');
    expectError(await t.app.inject({ url: '/not-the-api' }), 404, 'NOT_FOUND');
  });

  it('a known path with the wrong method gets 405 and Allow', async () => {
    const a = expectError(
      await call(t.app, { method: 'DELETE', url: '/projects', headers: owner.auth }),
      405,
      'METHOD_NOT_ALLOWED',
    );
    expect(a.message).toMatch(/DELETE/);
    const res = await call(t.app, { method: 'DELETE', url: '/projects' });
    expect(res.statusCode).toBe(405);
    expect(String(res.headers.allow).split(', ').sort()).toEqual(['GET', 'POST']);
    const one = await call(t.app, { method: 'PATCH', url: '/api-keys/key_1' });
    expectError(one, 405, 'METHOD_NOT_ALLOWED');
    expect(String(one.headers.allow).split(', ').sort()).toEqual(['DELETE', 'GET', 'PUT']);
    const health = await call(t.app, { method: 'POST', url: '/health' });
    expectError(health, 405, 'METHOD_NOT_ALLOWED');
    expect(health.headers.allow).toBe('GET');
  });

  it('malformed JSON is a 400 VALIDATION_ERROR', async () => {
    for (const payload of ['{"name":', '{name: "x"}', '[1,2', 'nul']) {
      expectError(
        await call(t.app, {
          method: 'POST',
          url: '/projects',
          headers: { ...owner.auth, 'content-type': 'application/json' },
          payload,
        }),
        400,
        'VALIDATION_ERROR',
      );
    }
  });

  it('a body over 1 MiB is a 413 PAYLOAD_TOO_LARGE; just under is accepted by the parser', async () => {
    const big = JSON.stringify({ name: 'x', description: 'y'.repeat(1024 * 1024) });
    expectError(
      await call(t.app, {
        method: 'POST',
        url: '/projects',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        payload: big,
      }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    // ~1 MB: passes the size limit and fails only on the schema (description is at most 2000 characters).
    const nearly = JSON.stringify({ name: 'x', description: 'y'.repeat(1000 * 1000) });
    const err = expectError(
      await call(t.app, {
        method: 'POST',
        url: '/projects',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        payload: nearly,
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(err.details?.map((d) => d.field)).toEqual(['description']);
  });

  it('a non-JSON content type on a JSON route is a 415', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'text/csv']) {
      const res = await call(t.app, {
        method: 'POST',
        url: '/projects',
        headers: { ...owner.auth, 'content-type': type },
        payload: 'name=x',
      });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    // Nothing was created by any of them.
    const list = await call(t.app, { url: '/projects', headers: owner.auth });
    expect(list.json().data).toEqual([]);
  });

  it('validation errors name each offending field', async () => {
    const err = expectError(
      await call(t.app, {
        method: 'POST',
        url: '/projects',
        headers: owner.auth,
        payload: { name: '', retention_days: 'x', bogus: 1 },
      }),
      400,
      'VALIDATION_ERROR',
    );
    const fields = err.details?.map((d) => d.field).sort();
    expect(fields).toEqual(['bogus', 'name', 'retention_days']);
    expect(err.message).toMatch(/bogus/);
  });

  it('every response carries X-Request-Id; a sane client id is kept, an unsafe one replaced', async () => {
    const responses = await Promise.all([
      call(t.app, { url: '/health' }),
      call(t.app, { url: '/projects', headers: owner.auth }),
      call(t.app, { url: '/projects' }),
      call(t.app, { url: '/nope' }),
    ]);
    const ids = responses.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);

    const kept = await call(t.app, { url: '/projects', headers: { 'x-request-id': 'trace-abc.123:x' } });
    expect(kept.headers['x-request-id']).toBe('trace-abc.123:x');
    expect(kept.json().error.request_id).toBe('trace-abc.123:x');
    const replaced = await call(t.app, { url: '/health', headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers['x-request-id']).toMatch(/^req_/);
  });

  it('GET /health answers without credentials', async () => {
    const res = await call(t.app, { url: '/health' });
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({ success: true, data: { status: 'ok' } });
    expect(typeof b.data.version).toBe('string');
    expect(typeof b.message).toBe('string');
  });

  it('GET /ready checks the database and Redis', async () => {
    const res = await call(t.app, { url: '/ready' });
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b.data.status).toBe('ready');
    expect(b.data.components.database.status).toBe('ok');
    expect(b.data.components.redis.status).toBe('ok');
  });

  it('GET /openapi.json is an OpenAPI 3.1 document covering projects, API keys and auth', async () => {
    const res = await call(t.app, { url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    // One source: the release /health reports, which is package.json's.
    const health = (await call(t.app, { url: '/health' })).json();
    expect(doc.info.version).toBe(health.data.version);
    expect(doc.info.version).toBe(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version);
    // Rate-limit headers are documented on successful answers of authenticated operations too.
    const listProjects = doc.paths['/api/v1/projects'].get.responses['200'];
    expect(Object.keys(listProjects.headers)).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy']),
    );
    expect(doc.paths['/api/v1/auth/login'].post.responses['200']?.headers?.['X-RateLimit-Limit']).toBeUndefined();
    // The webhook deliveries (OpenAPI 3.1 `webhooks:`): payload, signature header, retry policy.
    const delivery = doc.webhooks['document.extracted'].post;
    expect(delivery.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['X-Service-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']),
    );
    expect(JSON.stringify(delivery.requestBody)).toContain('#/components/schemas/Event');
    expect(delivery.description).toMatch(/1 min, 5 min, 30 min, 2 h and 12 h.*±20%/);
    expect(Object.keys(doc.webhooks)).toEqual(expect.arrayContaining(['document.uploaded', 'report.completed']));
    const expected: Record<string, string[]> = {
      '/api/v1/projects': ['get', 'post'],
      '/api/v1/projects/{id}': ['delete', 'get', 'put'],
      '/api/v1/projects/{id}/archive': ['post'],
      '/api/v1/projects/{id}/unarchive': ['post'],
      '/api/v1/projects/{id}/stats': ['get'],
      '/api/v1/api-keys': ['get', 'post'],
      '/api/v1/api-keys/{api_key_id}': ['delete', 'get', 'put'],
      '/api/v1/auth/login': ['post'],
      '/api/v1/auth/refresh': ['post'],
      '/api/v1/health': ['get'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      expect(doc.paths[path], path).toBeDefined();
      for (const m of methods) expect(doc.paths[path][m], `${m} ${path}`).toBeDefined();
    }
    const HTTP = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      // OpenAPI templating, not the router's ":param" syntax; the spec itself is not listed.
      expect(path).not.toMatch(/:/);
      expect(path).not.toMatch(/openapi\.json|\/docs/);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item)) {
        if (!HTTP.has(method)) continue;
        expect(Object.keys(op.responses ?? {}).length, `${method} ${path} responses`).toBeGreaterThan(0);
        const pathParams = (op.parameters ?? []).filter((p: any) => p.in === 'path');
        expect(pathParams.map((p: any) => p.name).sort(), `${method} ${path} path params`).toEqual(
          [...templated].sort(),
        );
        for (const p of pathParams) expect(p.required).toBe(true);
      }
    }
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/v1/auth/login'].post.security).toEqual([]);
    const keyBody = doc.paths['/api/v1/api-keys'].post.requestBody.content['application/json'].schema;
    expect(keyBody.required).toEqual(['name']);
    expect(Object.keys(keyBody.properties)).toEqual(
      expect.arrayContaining([
        'name',
        'rate_limit_per_minute',
        'rate_limit_per_day',
        'expires_in_days',
        'allowed_ips',
        'allowed_endpoints',
        'metadata',
      ]),
    );
    const listParams = doc.paths['/api/v1/projects'].get.parameters.map((p: any) => p.name);
    expect(listParams).toEqual(
      expect.arrayContaining(['search', 'sort', 'order', 'limit', 'offset', 'status', 'include_archived']),
    );
    // Every $ref points at something that exists.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]);
    for (const ref of refs) {
      const target = ref
        .split('/')
        .reduce<any>((node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      expect(target, ref).toBeDefined();
    }
  });

  it('GET /docs serves the interactive reference as HTML', async () => {
    const res = await t.app.inject({ url: `${API}/docs` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/<html/i);
  });
});

// Redis behaviour does not depend on the database: run once, on the quicker one to set up.
describe('HTTP with Redis unreachable', () => {
  it('/ready reports 503 naming Redis; authenticated requests fail closed with 503', async () => {
    const t = await foundationApp(dbKinds().at(-1) ?? 'pglite');
    // Same database, a Redis address where nothing listens.
    const deps = await createDeps(t.config, {
      db: t.testDb.db,
      redisUrl: 'redis://127.0.0.1:9',
      logger: createLogger({ level: 'silent', pretty: false }),
      migrate: false,
    });
    const app = await buildApp(appDepsFrom(deps));
    try {
      const owner = await quickActor(t);
      const ready = await call(app, { url: '/ready' });
      const err = expectError(ready, 503, 'SERVICE_UNAVAILABLE');
      expect((err.details as unknown as Record<string, { status: string }>).redis.status).toBe('error');
      expect((err.details as unknown as Record<string, { status: string }>).database.status).toBe('ok');
      expectError(await call(app, { url: '/projects', headers: owner.auth }), 503, 'SERVICE_UNAVAILABLE');
      // Liveness does not depend on Redis.
      expect((await call(app, { url: '/health' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await deps.close();
      await t.close();
    }
  });
});
