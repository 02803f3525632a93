// Hostile values in ordinary fields get a 400 envelope, never a 500: NUL characters in any string
// (bodies, keys, query strings, path parameters, multipart fields and file names, YAML), integers
// too large for the database, multipart without a boundary, JSON nested thousands deep. And an
// upload refused after its bytes were stored leaves no file behind.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createIntake } from '../../src/modules/documents/intake.js';
import { sweepOrphanFiles } from '../../workers/maintenance.js';
import { multipart } from '../helpers/multipart.js';
import {
  call,
  dataOf,
  expectError,
  insertDocument,
  makeProject,
  quickActor,
  type QuickActor,
} from '../integration/foundation/support.js';

/** Files in the blob store (content-addressed ones and leftovers in tmp). */
function blobFiles(t: TestApp): string[] {
  const root = join(t.config.dataDir, 'files');
  const out: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p.slice(root.length + 1));
    }
  };
  walk(root);
  return out.sort();
}

/** JSON text nested `depth` levels deep, built as text (stringify itself would overflow the stack). */
function nestedText(depth: number): string {
  return '{"a":['.repeat(Math.ceil(depth / 2)) + '1' + ']}'.repeat(Math.ceil(depth / 2));
}

function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v];
  return v;
}

describe('input limits', () => {
  let t: TestApp;
  let owner: QuickActor;
  let projectId: string;
  let docId: string;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    owner = await quickActor(t);
    projectId = (await makeProject(t.app, owner.auth)).id;
    docId = await insertDocument(t, { orgId: owner.orgId, projectId });
  });
  afterAll(async () => {
    await t?.close();
  });

  const expect400 = (res: LightMyRequestResponse, what: string) => {
    expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
    expectError(res, 400, 'VALIDATION_ERROR');
  };

  it('a NUL character anywhere in a JSON body, a query string or a path parameter is a 400', async () => {
    const N = 'x\u0000y';
    const cases: { what: string; method: 'GET' | 'POST' | 'PUT' | 'PATCH'; url: string; payload?: unknown }[] = [
      { what: 'project name', method: 'POST', url: '/projects', payload: { name: N } },
      { what: 'project description', method: 'POST', url: '/projects', payload: { name: 'ok', description: N } },
      { what: 'project rename', method: 'PUT', url: `/projects/${projectId}`, payload: { name: N } },
      { what: 'api-key name', method: 'POST', url: '/api-keys', payload: { name: N } },
      {
        what: 'api-key metadata value',
        method: 'POST',
        url: '/api-keys',
        payload: { name: 'k', metadata: { a: { b: [1, N] } } },
      },
      { what: 'api-key metadata key', method: 'POST', url: '/api-keys', payload: { name: 'k', metadata: { [N]: 1 } } },
      { what: 'document filename', method: 'PATCH', url: `/documents/${docId}`, payload: { filename: `${N}.pdf` } },
      { what: 'document metadata', method: 'PATCH', url: `/documents/${docId}`, payload: { metadata: { note: N } } },
      { what: 'document fields', method: 'PATCH', url: `/documents/${docId}`, payload: { fields: { total: N } } },
      {
        what: 'document classification',
        method: 'PATCH',
        url: `/documents/${docId}`,
        payload: { classification: { type: N } },
      },
      {
        what: 'webhook description',
        method: 'POST',
        url: '/webhooks',
        payload: { url: 'https://93.184.215.14/h', events: ['*'], description: N },
      },
      {
        what: 'template name',
        method: 'POST',
        url: '/templates',
        payload: { name: N, issuer: 'ACME', keywords: ['ACME'], fields: { amount: 'Total (\\d+)' } },
      },
      {
        what: 'mailbox name',
        method: 'POST',
        url: '/integrations/mailboxes',
        payload: { name: N, host: '93.184.215.14', username: 'u', password: 'p', project_id: projectId },
      },
      { what: 'search q', method: 'GET', url: '/documents?q=a%00b' },
      { what: 'classification filter', method: 'GET', url: '/documents?classification=%00' },
      { what: 'project search', method: 'GET', url: '/projects?search=%00' },
      { what: 'event type filter', method: 'GET', url: '/events?type=%00' },
      { what: 'path parameter', method: 'GET', url: '/projects/prj_%00' },
      { what: 'path parameter (documents)', method: 'GET', url: '/documents/%00/text' },
    ];
    for (const c of cases)
      expect400(await call(t.app, { method: c.method, url: c.url, headers: owner.auth, payload: c.payload }), c.what);
    // Nothing was written on the way.
    const projects = dataOf(await call(t.app, { url: '/projects?limit=100', headers: owner.auth }));
    expect(projects.map((p: { id: string }) => p.id)).toEqual([projectId]);
    expect(dataOf(await call(t.app, { url: '/api-keys', headers: owner.auth }))).toEqual([]);
  });

  it('NUL decoded from YAML (a "\\0" escape) is a 400 too', async () => {
    const yaml = 'issuer: "ACME\\0"\nkeywords: [ACME]\nfields:\n  amount: Total (\\d+)\n';
    expect400(
      await call(t.app, { method: 'POST', url: '/templates/import', headers: owner.auth, payload: { yaml } }),
      'yaml',
    );
  });

  it('integers beyond what the database holds are a 400 on every list', async () => {
    const huge = ['99999999999999999999', '1e20', '1e300', '2147483648'];
    const lists = [
      ['/documents', ['page', 'per_page']],
      ['/projects', ['limit', 'offset']],
      ['/api-keys', ['limit', 'offset']],
      ['/events', ['limit', 'offset']],
      [`/projects/${projectId}/documents`, ['page', 'limit']],
      ['/webhooks', ['limit', 'offset']],
      ['/integrations/mailboxes', ['limit', 'offset']],
    ] as const;
    for (const [url, params] of lists) {
      for (const p of params) {
        for (const v of huge) {
          const res = await call(t.app, { url: `${url}?${p}=${v}`, headers: owner.auth });
          expect400(res, `${url}?${p}=${v}`);
        }
      }
    }
    // The largest accepted values still answer (an empty page, not an error).
    expect(dataOf(await call(t.app, { url: '/documents?page=2147483647', headers: owner.auth }))).toEqual([]);
    expect(dataOf(await call(t.app, { url: '/projects?offset=2147483647', headers: owner.auth }))).toEqual([]);
  });

  it('JSON nested thousands of levels deep is a 400', async () => {
    for (const depth of [100, 5_000, 100_000]) {
      const payload = `{"name":"deep","metadata":${nestedText(depth)}}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        headers: { ...owner.auth, 'content-type': 'application/json' },
        payload,
      });
      expect400(res, `depth ${depth}`);
    }
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/documents/${docId}`,
      headers: { ...owner.auth, 'content-type': 'application/json' },
      payload: `{"metadata":${nestedText(10_000)}}`,
    });
    expect400(res, 'document metadata');
    // Ordinary nesting is fine.
    dataOf(
      await call(t.app, {
        method: 'POST',
        url: '/api-keys',
        headers: owner.auth,
        payload: { name: 'shallow', metadata: nested(10) },
      }),
      201,
    );
  });

  it('multipart without a boundary, with an empty one or with a malformed body is a 400 and stores nothing', async () => {
    const before = blobFiles(t);
    for (const ct of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; charset=utf-8']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/documents?project_id=${projectId}`,
        headers: { ...owner.auth, 'content-type': ct },
        payload: 'hello',
      });
      expect400(res, ct);
    }
    const ct = 'multipart/form-data; boundary=abc';
    const file =
      '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nInvoice 7 total 3.00';
    for (const [what, payload] of [
      ['no parts', 'hello'],
      ['truncated field', '--abc\r\nContent-Disposition: form-data; name="x"\r\n\r\nhel'],
      ['truncated file', file],
      ['file then a broken part', `${file}\r\n--abc\r\nContent-Disposition: form-da`],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/documents?project_id=${projectId}`,
        headers: { ...owner.auth, 'content-type': ct },
        payload,
      });
      expect400(res, what);
    }
    expect(blobFiles(t)).toEqual(before);
  });

  it('an upload refused for a NUL in its fields or file name leaves no file in the blob store', async () => {
    const before = blobFiles(t);
    const data = Buffer.from('Invoice 42\nTotal 10.00 EUR\n');
    const bodies = [
      multipart({ project_id: projectId }, { name: 'in\u0000voice.txt', data, type: 'text/plain' }),
      multipart(
        { project_id: projectId, metadata: '{"a":"\\u0000"}' },
        { name: 'invoice.txt', data, type: 'text/plain' },
      ),
      multipart(
        { project_id: projectId, metadata: JSON.stringify({ deep: nested(500) }) },
        { name: 'invoice.txt', data, type: 'text/plain' },
      ),
      multipart({ project_id: `${projectId}\u0000` }, { name: 'invoice.txt', data, type: 'text/plain' }),
    ];
    for (const [i, b] of bodies.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/documents',
        headers: { ...owner.auth, ...b.headers },
        payload: b.payload,
      });
      expect400(res, `upload ${i}`);
      expect(blobFiles(t), `upload ${i}`).toEqual(before);
    }
    // The same bytes with clean fields are accepted (the refusals were about the fields).
    const clean = multipart({ project_id: projectId }, { name: 'invoice.txt', data, type: 'text/plain' });
    dataOf(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/documents',
        headers: { ...owner.auth, ...clean.headers },
        payload: clean.payload,
      }),
      201,
    );
  });

  it('an intake whose insert fails removes the file it stored (and keeps a file another document uses)', async () => {
    const failingDocs = {
      ...t.deps.documents.docs,
      insert: async () => {
        throw new Error('database went away');
      },
    };
    const intake = createIntake({
      db: t.deps.db,
      docs: failingDocs,
      projects: t.deps.repos.projects,
      blobs: t.deps.blobs,
      queues: t.deps.queues,
      logger: t.deps.logger,
      maxUploadBytes: 1_000_000,
    });
    const scope = { orgId: owner.orgId, environment: 'live' as const };
    const before = blobFiles(t);
    const fresh = Buffer.from(`Invoice ${Date.now()}\nTotal 12.00 EUR\n`);
    await expect(intake.fromBuffer(fresh, { scope, projectId, filename: 'a.txt', source: 'api' })).rejects.toThrow(
      'database went away',
    );
    expect(blobFiles(t)).toEqual(before);
    // Bytes already stored for a real document stay when a second intake of them fails.
    const kept = Buffer.from('Receipt 9\nTotal 1.00 EUR\n');
    const up = multipart({ project_id: projectId }, { name: 'r.txt', data: kept, type: 'text/plain' });
    const doc = dataOf(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/documents',
        headers: { ...owner.auth, ...up.headers },
        payload: up.payload,
      }),
      201,
    );
    const withDoc = blobFiles(t);
    await expect(
      intake.fromBuffer(kept, { scope, projectId, filename: 'again.txt', source: 'api', allowDuplicate: true }),
    ).rejects.toThrow('database went away');
    expect(blobFiles(t)).toEqual(withDoc);
    const content = await t.app.inject({
      method: 'GET',
      url: `/api/v1/documents/${doc.id}/content`,
      headers: owner.auth,
    });
    expect(content.statusCode).toBe(200);
    expect(content.body).toBe(kept.toString());
  });

  it('the orphan sweep removes files no document refers to and keeps every file a document uses', async () => {
    const up = multipart(
      { project_id: projectId },
      { name: 'kept.txt', data: Buffer.from('Invoice 77\nTotal 7.00 EUR\n'), type: 'text/plain' },
    );
    const doc = dataOf(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/documents',
        headers: { ...owner.auth, ...up.headers },
        payload: up.payload,
      }),
      201,
    );
    // An orphan as a crash between storing and committing would leave it.
    const orphan = await t.deps.blobs.putBuffer(Buffer.from(`orphan ${Date.now()}`));
    await t.deps.blobs.release(orphan);
    const inFlight = await t.deps.blobs.putBuffer(Buffer.from(`in flight ${Date.now()}`));
    // (Rows made by insertDocument have no file at all; only files that exist are checked.)
    const { rows } = await t.testDb.db.query<{ storage_key: string }>('SELECT DISTINCT storage_key FROM documents');
    const present: string[] = [];
    for (const r of rows) if (await t.deps.blobs.exists(r.storage_key)) present.push(r.storage_key);
    expect(present.length).toBeGreaterThanOrEqual(2);
    expect(await sweepOrphanFiles(t.deps)).toEqual({ removed: 0, temporary: 0 });
    await new Promise((r) => setTimeout(r, 20)); // setup wait: the files' change times pass a 10 ms cutoff
    const res = await sweepOrphanFiles(t.deps, 10);
    expect(res.removed).toBeGreaterThanOrEqual(1);
    expect(await t.deps.blobs.exists(orphan.key)).toBe(false);
    expect(await t.deps.blobs.exists(inFlight.key)).toBe(true);
    for (const key of present) expect(await t.deps.blobs.exists(key), key).toBe(true);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/documents/${doc.id}/content`, headers: owner.auth }))
        .statusCode,
    ).toBe(200);
  });
});
