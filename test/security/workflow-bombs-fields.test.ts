// Issue 22, item 4: set_fields grew a document without bound (twenty fields of
// $pad("",900000,"a") wrote 18 MB into one document; 32 such documents made GET /documents
// build hundreds of megabytes). Every writer now keeps a document's fields and metadata within
// the bound of src/lib/limits.ts, and list items carry a bounded summary of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor, type TestApp } from '../helpers/app.js';
import { createProject, upload } from '../helpers/pipeline.js';
import { eventually, insertExtractedDocuments } from '../helpers/sheets-harness.js';
import { createWorkflowTestApp, type WorkflowStack } from '../helpers/workflows-harness.js';
import { createWorkflowDocuments } from '../../src/modules/workflows/documents.port.js';
import {
  LIST_ITEM_VALUES_BYTES,
  MAX_DOCUMENT_VALUE_BYTES,
  MAX_DOCUMENT_VALUES_BYTES,
  MAX_UPLOAD_METADATA_BYTES,
} from '../../src/lib/limits.js';

describe('workflow bombs: document fields stay bounded', () => {
  let t: WorkflowStack;
  let owner: Actor;
  let project: string;
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: owner.auth,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const health = async () => (await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode;
  const fieldsBytes = async (id: string) =>
    (
      await t.deps.db.query<{ n: number }>(
        `SELECT octet_length(coalesce(fields, '{}'::jsonb)::text) + octet_length(metadata::text) AS n FROM documents WHERE id = $1`,
        [id],
      )
    ).rows[0].n;

  async function workflowOf(fields: Record<string, string>): Promise<string> {
    const res = await api('POST', '/workflows', {
      name: `bomb ${Math.random()}`,
      nodes: [
        { id: 'start', type: 'trigger.manual', config: {} },
        { id: 'grow', type: 'set_fields', config: { fields } },
      ],
      edges: [{ source: 'start', target: 'grow' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    return body(res).data.id;
  }

  async function run(workflowId: string, documentId: string, mode: 'execute' | 'dry_run' = 'execute') {
    const res = await api('POST', `/workflows/${workflowId}/run`, { mode, input: { document_id: documentId } });
    expect(res.statusCode, res.body).toBe(202);
    const id = body(res).data.id;
    return eventually(
      async () => {
        const r = body(await api('GET', `/workflows/runs/${id}`)).data;
        return ['completed', 'failed', 'cancelled'].includes(r.status) && r;
      },
      `run ${id}`,
      30_000,
    );
  }

  beforeAll(async () => {
    t = await createWorkflowTestApp();
    owner = await createActor(t as unknown as TestApp);
    project = await createProject(t as unknown as TestApp, owner);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the reproduction (twenty fields of $pad("",900000,"a")) fails the step and leaves the document as it was', async () => {
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: project }, 1);
    const before = await fieldsBytes(doc.id);
    const fields = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`pad${i}`, '$pad("", 900000, "a")']));
    const r = await run(await workflowOf(fields), doc.id);
    expect(r.status).toBe('failed');
    const step = r.steps.find((s: { node_id: string }) => s.node_id === 'grow');
    expect(step.status).toBe('failed');
    expect(step.error.message).toMatch(/\S/);
    expect(await fieldsBytes(doc.id)).toBe(before);
    expect(await health()).toBe(200);
  });

  it('values within the per-value limit but over the total fail with DOCUMENT_TOO_LARGE naming the limit (run and dry run)', async () => {
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: project }, 1);
    const before = await fieldsBytes(doc.id);
    const fields = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`pad${i}`, '$pad("", 60000, "a")']));
    const wf = await workflowOf(fields);
    for (const mode of ['execute', 'dry_run'] as const) {
      const r = await run(wf, doc.id, mode);
      expect(r.status).toBe('failed');
      const step = r.steps.find((s: { node_id: string }) => s.node_id === 'grow');
      expect(step.error.code).toBe('DOCUMENT_TOO_LARGE');
      expect(step.error.message).toContain(`${MAX_DOCUMENT_VALUES_BYTES} bytes`);
    }
    expect(await fieldsBytes(doc.id)).toBe(before);

    // One value over 64 KiB is named with the per-value limit.
    const r = await run(await workflowOf({ big: '$pad("", 70000, "a")' }), doc.id);
    const step = r.steps.find((s: { node_id: string }) => s.node_id === 'grow');
    expect(step.error.code).toBe('DOCUMENT_TOO_LARGE');
    expect(step.error.message).toContain('fields.big');
    expect(step.error.message).toContain(`${MAX_DOCUMENT_VALUE_BYTES} bytes`);

    // Within the bound, the write goes through.
    const ok = await run(await workflowOf({ fine: '$pad("", 1000, "a")' }), doc.id);
    expect(ok.status).toBe('completed');
    expect(await health()).toBe(200);
  });

  it('mark_for_review keeps its reason (metadata.review_reason) within the bound', async () => {
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: project }, 1);
    const res = await api('POST', '/workflows', {
      name: 'long reason',
      nodes: [
        { id: 'start', type: 'trigger.manual', config: {} },
        { id: 'review', type: 'mark_for_review', config: { reason: 'why: {{ $pad("", 70000, "a") }}' } },
      ],
      edges: [{ source: 'start', target: 'review' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const r = await run(body(res).data.id, doc.id);
    const step = r.steps.find((s: { node_id: string }) => s.node_id === 'review');
    expect(step.error.code).toBe('DOCUMENT_TOO_LARGE');
    expect(step.error.message).toContain('metadata.review_reason');
    const d = body(await api('GET', `/documents/${doc.id}`)).data;
    expect(d.status).toBe('completed');
    expect(d.metadata.review_reason).toBeUndefined();
  });

  it('the write itself is checked as merged, so concurrent writers cannot add up past the bound', async () => {
    // As if another step had written 200 KB after this run read the document: the merged row is
    // over the bound, the write rolls back and the step fails.
    const half = { value: 'a'.repeat(50_000), confidence: 1, method: 'workflow' };
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: project }, 1, () => ({
      fields: { a: half, b: half, c: half, d: half },
    }));
    const before = await fieldsBytes(doc.id);
    const port = createWorkflowDocuments(t.deps.documents.docs, t.deps.documents.stages);
    await expect(
      t.deps.db.tx((q) => port.setFields(q, doc.id, { e: 'b'.repeat(50_000), f: 'c'.repeat(50_000) }, {})),
    ).rejects.toMatchObject({ code: 'DOCUMENT_TOO_LARGE' });
    expect(await fieldsBytes(doc.id)).toBe(before);
    await t.deps.db.tx((q) => port.setFields(q, doc.id, { e: 'small' }, {}));
    expect(await fieldsBytes(doc.id)).toBeGreaterThan(before);
  });

  it('PATCH /documents/{id} answers 400 naming the field and the limit, and writes nothing', async () => {
    const [doc] = await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: project }, 1);
    const before = await fieldsBytes(doc.id);
    const one = await api('PATCH', `/documents/${doc.id}`, { fields: { note: 'x'.repeat(70_000) } });
    expect(one.statusCode).toBe(400);
    expect(body(one).error.details[0].field).toBe('fields.note');
    expect(body(one).error.message).toContain(`${MAX_DOCUMENT_VALUE_BYTES} bytes`);
    const meta = await api('PATCH', `/documents/${doc.id}`, { metadata: { note: 'x'.repeat(70_000) } });
    expect(meta.statusCode).toBe(400);
    expect(body(meta).error.details[0].field).toBe('metadata.note');
    const many = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}`, 'x'.repeat(60_000)]));
    const total = await api('PATCH', `/documents/${doc.id}`, { fields: many, filename: 'renamed.pdf' });
    expect(total.statusCode).toBe(400);
    expect(body(total).error.message).toContain(`${MAX_DOCUMENT_VALUES_BYTES} bytes`);
    expect(await fieldsBytes(doc.id)).toBe(before);
    const d = body(await api('GET', `/documents/${doc.id}`)).data;
    expect(d.filename).not.toBe('renamed.pdf');
    const fine = await api('PATCH', `/documents/${doc.id}`, { fields: { note: 'x'.repeat(60_000) } });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('upload metadata over its limit is refused with 400 naming the limit', async () => {
    const res = await upload(t as unknown as TestApp, owner, project, 'a.txt', Buffer.from('hello'), {
      metadata: JSON.stringify({ note: 'x'.repeat(MAX_UPLOAD_METADATA_BYTES) }),
    });
    expect(res.statusCode).toBe(400);
    expect(body(res).error.details[0].field).toBe('metadata');
    expect(body(res).error.message).toContain(`${MAX_UPLOAD_METADATA_BYTES} bytes`);
  });

  it('intake refuses metadata over the document bound (CLI, e-mail and API paths share it)', async () => {
    await expect(
      t.deps.documents.intake.fromBuffer(Buffer.from('hello'), {
        scope: { orgId: owner.orgId, environment: 'live' },
        projectId: project,
        filename: 'b.txt',
        source: 'api',
        metadata: { note: 'x'.repeat(MAX_DOCUMENT_VALUE_BYTES + 1) },
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'metadata.note' }] });
  });

  it('32 documents carrying near-maximum fields list with per_page=100 within the list budget', async () => {
    const listProject = await createProject(t as unknown as TestApp, owner);
    const near = Object.fromEntries(
      Array.from({ length: 4 }, (_, i) => [`v${i}`, { value: 'a'.repeat(60_000), confidence: 1, method: 'workflow' }]),
    );
    const small = { po: { value: '4711', confidence: 1, method: 'manual' } };
    await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: listProject }, 32, () => ({
      fields: { ...small, ...near },
    }));
    // One written before the bound existed: 5 MB in one field.
    await insertExtractedDocuments(t.deps.db, { orgId: owner.orgId, projectId: listProject }, 1, () => ({
      fields: { legacy: { value: 'b'.repeat(5_000_000), confidence: 1, method: 'workflow' } },
    }));
    const lists = await Promise.all([
      api('GET', `/documents?project_id=${listProject}&per_page=100`),
      api('GET', `/projects/${listProject}/documents?page=1&limit=100`),
    ]);
    for (const res of lists) {
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const items = body(res).data as Array<Record<string, any>>;
      expect(items).toHaveLength(33);
      // Each item: its own columns plus at most the list budget of fields and metadata.
      expect(res.rawPayload.length).toBeLessThan(33 * (LIST_ITEM_VALUES_BYTES + 4096));
      for (const it of items) {
        expect(it.values_truncated).toBe(true);
        expect(JSON.stringify(it.fields ?? {}).length).toBeLessThanOrEqual(LIST_ITEM_VALUES_BYTES);
      }
      const trimmed = items.filter((i) => i.fields?.po);
      expect(trimmed).toHaveLength(32);
    }
    // The document itself still has them all.
    const one = body(lists[0]).data.find((i: { fields: unknown }) => i.fields && 'po' in (i.fields as object));
    const full = body(await api('GET', `/documents/${one.id}`)).data;
    expect(Object.keys(full.fields).sort()).toEqual(['po', 'v0', 'v1', 'v2', 'v3']);
    expect(full.values_truncated).toBeUndefined();
    expect(await health()).toBe(200);
  });
});
