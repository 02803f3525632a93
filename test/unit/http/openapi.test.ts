// The OpenAPI document is complete: every operation has its success answer with a schema, the
// shared error answers it can give, and the descriptions name only real routes; the committed
// typed client (src/api/types.ts) is what the document gives.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../src/http/openapi-document.js';
import { OPERATION_DOCS } from '../../../src/http/routes/openapi.js';
import { typesSource } from '../../../scripts/openapi-types.js';

type Media = { schema?: Record<string, unknown>; example?: unknown };
type Response = {
  $ref?: string;
  description?: string;
  content?: Record<string, Media>;
  headers?: Record<string, unknown>;
};
type Operation = {
  operationId?: string;
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, Media & { encoding?: unknown }> };
  responses: Record<string, Response>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Response>; schemas: Record<string, unknown> };
};

let doc: Doc;
const ops: { method: string; path: string; op: Operation }[] = [];

beforeAll(async () => {
  doc = (await openApiDocument()) as unknown as Doc;
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) ops.push({ method, path, op });
});

describe('OpenAPI document', () => {
  it('describes the success answer of every operation with a status and a body schema', () => {
    const missing: string[] = [];
    for (const { method, path, op } of ops) {
      const key = `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, '').replace(/\{(\w+)\}/g, ':$1')}`;
      if (!OPERATION_DOCS[key] && key !== 'GET /health' && key !== 'GET /ready') missing.push(key);
      const success = Object.entries(op.responses).filter(([code]) => Number(code) < 400);
      expect(success.length, `${key} has a success answer`).toBeGreaterThan(0);
      for (const [code, r] of success) {
        expect(r.description, `${key} ${code}`).not.toBe('Default Response');
        const media = r.content?.['application/json'] ?? Object.values(r.content ?? {})[0];
        expect(media?.schema, `${key} ${code} has a schema`).toBeDefined();
      }
    }
    expect(missing, 'operations without an entry in the OpenAPI tables (src/http/routes/*/openapi.ts)').toEqual([]);
  });

  it('names only real routes in the description tables', () => {
    const real = new Set(
      ops.map(
        ({ method, path }) => `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, '').replace(/\{(\w+)\}/g, ':$1')}`,
      ),
    );
    expect(Object.keys(OPERATION_DOCS).filter((k) => !real.has(k))).toEqual([]);
  });

  it('gives every authenticated operation 401, 403 and 429 (with Retry-After), and 404 where there is an id', () => {
    expect(doc.components.responses.RateLimited.headers).toHaveProperty('Retry-After');
    for (const { method, path, op } of ops) {
      const r = op.responses;
      if (!(Array.isArray(op.security) && op.security.length === 0)) {
        for (const code of ['401', '403', '429']) expect(r[code], `${method} ${path} ${code}`).toBeDefined();
      }
      if (op.parameters?.some((p) => p.in === 'path')) expect(r['404'], `${method} ${path} 404`).toBeDefined();
      if (op.requestBody)
        for (const code of ['400', '413', '415']) expect(r[code], `${method} ${path} ${code}`).toBeDefined();
    }
  });

  it('refers every error answer to the one error envelope', () => {
    for (const { method, path, op } of ops) {
      for (const [code, r] of Object.entries(op.responses)) {
        if (Number(code) < 400) continue;
        const resolved = r.$ref ? doc.components.responses[r.$ref.split('/').pop()!] : r;
        expect(resolved?.content?.['application/json']?.schema, `${method} ${path} ${code}`).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
  });

  it('documents the multipart upload of POST /documents and the real success statuses', () => {
    const upload = doc.paths['/api/v1/documents'].post;
    const form = upload.requestBody?.content['multipart/form-data'];
    expect(form?.schema).toMatchObject({
      required: ['file'],
      properties: { file: { type: 'string' }, project_id: { type: 'string' } },
    });
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['201', '200', '413', '415']));
    expect(doc.paths['/api/v1/projects'].post.responses['201']).toBeDefined();
    expect(doc.paths['/api/v1/documents/reprocess'].post.responses['202']).toBeDefined();
    expect(doc.paths['/api/v1/documents/{id}/content'].get.responses['200'].content).toHaveProperty(
      'application/octet-stream',
    );
  });

  it('has unique operation ids', () => {
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('matches the committed typed client (npm run openapi:types regenerates it)', async () => {
    const committed = readFileSync(new URL('../../../src/api/types.ts', import.meta.url), 'utf8');
    expect(
      committed === (await typesSource(doc as never)),
      'src/api/types.ts is stale: run npm run openapi:types',
    ).toBe(true);
  });
});
