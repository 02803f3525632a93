// Reprocessing: one document, batches over a project or a list (progress and per-document
// failures), `missing` versus `all`, and catching up on embeddings once a missing model appears.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds, type TestDb } from '../../helpers/db.js';
import {
  createDocsApp,
  docsConfig,
  eventCounts,
  eventually,
  openTestDb,
  stageRunCounts,
  type DocsApp,
} from '../../helpers/docs-app.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { generateTinyModel } from '../../helpers/tiny-model.js';
import { api, dataOf, errorCode, INVOICE_LINES, invoiceText, LETTER_TEXT, RECEIPT_TEXT } from './fixtures.js';

const TERMINAL = new Set(['completed', 'failed', 'needs_review']);

async function waitForBatch(t: DocsApp, actor: Actor, id: string) {
  return eventually(async () => {
    const b = dataOf(await api(t, actor, 'GET', `/batches/${id}`));
    return b.status === 'completed' ? b : null;
  }, `batch ${id} to complete`);
}

describe.each(dbKinds())('reprocessing (%s)', (kind) => {
  let t: DocsApp;
  let actor: Actor;
  let other: Actor;
  beforeAll(async () => {
    t = await createDocsApp({ kind });
    actor = await createActor(t);
    other = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function seed(files: [string, Buffer][]) {
    const projectId = await createProject(t, actor);
    const ids: string[] = [];
    for (const [name, data] of files) ids.push(dataOf(await upload(t, actor, projectId, name, data), 201).id);
    // 60 s: under the whole suite's load a first PDF has taken over 30 s here (twice, never alone).
    for (const id of ids) expect((await waitForDocument(t, id, 60_000)).status).toBe('completed');
    return { projectId, ids };
  }

  it('re-runs chosen stages of one document as a new version; each run commits its stage once', async () => {
    const {
      ids: [id],
    } = await seed([['r.txt', Buffer.from(RECEIPT_TEXT)]]);
    const res = await api(t, actor, 'POST', `/documents/${id}/reprocess`, { stages: ['extract'] });
    const queued = dataOf(res, 202);
    expect(queued).toMatchObject({ id, version: 2, status: 'processing' });
    expect(queued.pipeline.stages).toEqual(['extract']);
    const done = await waitForDocument(t, id);
    expect(done.status).toBe('completed');
    expect(await stageRunCounts(t.deps, id)).toEqual({ parse: 1, embed: 1, classify: 1, extract: 2 });
    expect(await eventCounts(t.deps, id)).toEqual({
      'document.uploaded': 1,
      'document.processed': 1,
      'document.classified': 1,
      'document.extracted': 2,
    });
    // No stages named: the whole pipeline again.
    dataOf(await api(t, actor, 'POST', `/documents/${id}/reprocess`, {}), 202);
    await waitForDocument(t, id);
    expect(await stageRunCounts(t.deps, id)).toEqual({ parse: 2, embed: 2, classify: 2, extract: 3 });
    expect((await api(t, actor, 'POST', `/documents/${id}/reprocess`, { stages: ['ocr'] })).statusCode).toBe(400);
    expect((await api(t, actor, 'POST', '/documents/doc_nope/reprocess', {})).statusCode).toBe(404);
    expect((await api(t, other, 'POST', `/documents/${id}/reprocess`, {})).statusCode).toBe(404);
  });

  it('keeps a classification a person confirmed when classification runs again', async () => {
    const {
      ids: [id],
    } = await seed([['l.txt', Buffer.from(LETTER_TEXT)]]);
    dataOf(
      await api(t, actor, 'PATCH', `/documents/${id}`, {
        classification: { type: 'contract' },
        fields: { party: 'Tidewater' },
      }),
    );
    dataOf(await api(t, actor, 'POST', `/documents/${id}/reprocess`, { stages: ['classify', 'extract'] }), 202);
    await waitForDocument(t, id);
    const d = dataOf(await api(t, actor, 'GET', `/documents/${id}`));
    expect(d.status).toBe('completed');
    expect(d.classification).toMatchObject({ type: 'contract', method: 'manual', confirmed: true });
    expect(d.fields.party).toMatchObject({ value: 'Tidewater', method: 'manual', confirmed: true });
  });

  it('runs a batch to the end when one document fails, and reports that failure', async () => {
    const { projectId, ids } = await seed([
      ['a.txt', Buffer.from(invoiceText('ba'))],
      ['b.txt', Buffer.from(RECEIPT_TEXT + '\nb')],
      ['c.txt', Buffer.from(LETTER_TEXT + '\nc')],
    ]);
    // The middle document's file disappears from the store.
    const { rows } = await t.deps.db.query<{ storage_key: string }>('SELECT storage_key FROM documents WHERE id = $1', [
      ids[1],
    ]);
    await t.deps.blobs.delete(rows[0].storage_key);

    const batch = dataOf(
      await api(t, actor, 'POST', '/documents/reprocess', { project_id: projectId, stages: ['parse'], mode: 'all' }),
      202,
    );
    expect(batch).toMatchObject({ id: expect.stringMatching(/^bat_/), total: 3, stages: ['parse'], mode: 'all' });
    const done = await waitForBatch(t, actor, batch.id);
    expect(done).toMatchObject({ total: 3, completed: 2, failed: 1, pending: 0, progress: 1 });
    expect(done.failures).toHaveLength(1);
    expect(done.failures[0]).toMatchObject({ document_id: ids[1], error: { stage: 'parse', code: 'FILE_MISSING' } });
    const bad = dataOf(await api(t, actor, 'GET', `/documents/${ids[1]}`));
    expect(bad).toMatchObject({ status: 'failed', error: { stage: 'parse', code: 'FILE_MISSING' } });
    for (const id of [ids[0], ids[2]])
      expect(dataOf(await api(t, actor, 'GET', `/documents/${id}`)).status).toBe('completed');

    // By id list: ids of other organizations or unknown ids are not part of the batch.
    const foreign = dataOf(
      await api(t, other, 'POST', '/documents/reprocess', {
        document_ids: [ids[0], 'doc_nope'],
        stages: ['extract'],
        mode: 'all',
      }),
      202,
    );
    expect(foreign.total).toBe(0);
    expect(foreign.status).toBe('completed');
    const mine = dataOf(
      await api(t, actor, 'POST', '/documents/reprocess', {
        document_ids: [ids[0], 'doc_nope'],
        stages: ['extract'],
        mode: 'all',
      }),
      202,
    );
    expect(mine.total).toBe(1);
    expect(await waitForBatch(t, actor, mine.id)).toMatchObject({ completed: 1, failed: 0 });
  });

  it('closes a batch whose documents finish at the same moment', async () => {
    const files: [string, Buffer][] = Array.from({ length: 8 }, (_, i) => [
      `n${i}.txt`,
      Buffer.from(`${RECEIPT_TEXT}\nvisit ${i}`),
    ]);
    const { projectId } = await seed(files);
    // Extraction is quick and runs several at a time: items finish in overlapping transactions.
    for (let round = 0; round < 2; round++) {
      const batch = dataOf(
        await api(t, actor, 'POST', '/documents/reprocess', {
          project_id: projectId,
          stages: ['extract'],
          mode: 'all',
        }),
        202,
      );
      expect(batch.total).toBe(8);
      expect(await waitForBatch(t, actor, batch.id)).toMatchObject({
        status: 'completed',
        completed: 8,
        failed: 0,
        pending: 0,
      });
    }
  });

  it('validates batch requests', async () => {
    const pid = await createProject(t, actor);
    expect(errorCode(await api(t, actor, 'POST', '/documents/reprocess', { stages: ['parse'] }))).toBe(
      'VALIDATION_ERROR',
    );
    expect(
      (await api(t, actor, 'POST', '/documents/reprocess', { project_id: pid, document_ids: ['doc_x'] })).statusCode,
    ).toBe(400);
    expect((await api(t, actor, 'POST', '/documents/reprocess', { project_id: pid, mode: 'some' })).statusCode).toBe(
      400,
    );
    expect((await api(t, actor, 'POST', '/documents/reprocess', { project_id: 'prj_nope' })).statusCode).toBe(404);
    expect((await api(t, actor, 'GET', '/batches/bat_nope')).statusCode).toBe(404);
  });

  // Its seed waits up to 60 s for a PDF: the test's own budget leaves room for that and the rest.
  it(
    'mode missing picks only documents whose stage ran with an older template version',
    { timeout: 150_000 },
    async () => {
      const yaml =
        'issuer: ACME Widgets Ltd\nname: acme\nkeywords: [ACME Widgets Ltd]\nfields:\n  invoice_number: Invoice No:\\s*(INV-\\d{4}-\\d+)\n';
      const [tpl] = dataOf(await api(t, actor, 'POST', '/templates/import', { yaml }), 201);
      const {
        projectId,
        ids: [acme, receipt],
      } = await seed([
        ['acme.pdf', await makeTextPdf({ pages: [INVOICE_LINES] })],
        ['r.txt', Buffer.from(RECEIPT_TEXT)],
      ]);
      expect((await waitForDocument(t, acme)).template_version).toBe(1);
      const none = dataOf(
        await api(t, actor, 'POST', '/documents/reprocess', {
          project_id: projectId,
          stages: ['extract'],
          mode: 'missing',
        }),
        202,
      );
      expect(none).toMatchObject({ total: 0, status: 'completed', progress: 1 });

      dataOf(
        await api(t, actor, 'PUT', `/templates/${tpl.id}`, {
          issuer: 'ACME Widgets Ltd',
          name: 'acme',
          keywords: ['ACME Widgets Ltd'],
          fields: { invoice_number: 'Invoice No:\\s*(INV-\\d{4}-\\d+)', po: 'PO:\\s*(\\S+)' },
        }),
      );
      const batch = dataOf(
        await api(t, actor, 'POST', '/documents/reprocess', {
          project_id: projectId,
          stages: ['extract'],
          mode: 'missing',
        }),
        202,
      );
      expect(batch.total).toBe(1);
      expect(await waitForBatch(t, actor, batch.id)).toMatchObject({ completed: 1, failed: 0 });
      expect(await waitForDocument(t, acme, 30_000, TERMINAL)).toMatchObject({
        status: 'completed',
        template_version: 2,
      });
      expect(await stageRunCounts(t.deps, acme)).toMatchObject({ extract: 2 });
      expect(await stageRunCounts(t.deps, receipt)).toMatchObject({ extract: 1 });
      const all = dataOf(
        await api(t, actor, 'POST', '/documents/reprocess', {
          project_id: projectId,
          stages: ['extract'],
          mode: 'all',
        }),
        202,
      );
      expect(all.total).toBe(2);
      await waitForBatch(t, actor, all.id);
    },
  );
});

describe('embedding model missing, then present (pglite)', () => {
  const modelDir = mkdtempSync(join(tmpdir(), 'docpipe-late-model-'));
  let testDb: TestDb;
  let t: DocsApp | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    testDb = await openTestDb('pglite');
  });
  afterAll(async () => {
    await t?.close();
    await testDb?.close();
    for (const dir of [modelDir, dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('completes documents without embeddings, says why, and embeds them with reprocess missing once the model is there', async () => {
    const config = await docsConfig({
      EMBEDDING_MODEL: 'docpipe-test/late-model',
      EMBEDDING_MODEL_DIR: modelDir,
      ALLOW_MODEL_DOWNLOAD: 'false',
    });
    dataDir = config.dataDir;
    t = await createDocsApp({ testDb, config });
    const actor = await createActor(t);
    const projectId = await createProject(t, actor);
    const ids: string[] = [];
    for (const [name, text] of [
      ['inv.txt', invoiceText('emb')],
      ['r.txt', RECEIPT_TEXT],
    ])
      ids.push(dataOf(await upload(t, actor, projectId, name, Buffer.from(text)), 201).id);
    for (const id of ids) {
      await waitForDocument(t, id);
      const d = dataOf(await api(t, actor, 'GET', `/documents/${id}`));
      expect(d.status).toBe('completed');
      expect(d.classification.type).toBeTruthy();
      expect(d.timestamps.embedded_at).toBeNull();
      expect(d.models.embedding_model).toBeNull();
      expect(d.pipeline.notes.embed).toMatch(/^embedding skipped: .{10,}/);
      expect(d.pipeline.skipped.embed).toMatchObject({
        code: 'EMBEDDING_UNAVAILABLE',
        message: expect.stringContaining('late-model'),
      });
    }
    // The pipeline page says so too, rather than looking complete.
    expect(dataOf(await api(t, actor, 'GET', '/pipeline')).stages.embed).toMatchObject({
      skipped: 2,
      skipped_reason: expect.stringContaining('late-model'),
    });
    const ready = dataOf(await api(t, actor, 'GET', '/ready'));
    expect(ready.components.embeddings).toMatchObject({
      status: 'unavailable',
      model: 'docpipe-test/late-model',
      reason: expect.any(String),
    });

    // Catching up before the model is there does no embedding: the batch says skipped, and why.
    const early = dataOf(
      await api(t, actor, 'POST', '/documents/reprocess', {
        project_id: projectId,
        stages: ['embed'],
        mode: 'missing',
      }),
      202,
    );
    expect(early.total).toBe(2);
    const skippedBatch = await waitForBatch(t, actor, early.id);
    expect(skippedBatch).toMatchObject({ completed: 0, skipped: 2, failed: 0, pending: 0, progress: 1 });
    expect(skippedBatch.skips.map((s: { document_id: string }) => s.document_id).sort()).toEqual([...ids].sort());
    expect(skippedBatch.skips[0].reason).toMatchObject({
      stage: 'embed',
      code: 'EMBEDDING_UNAVAILABLE',
      message: expect.stringContaining('late-model'),
    });
    // A stage that did its work in a run after a skip is not reported as skipped.
    const classified = dataOf(
      await api(t, actor, 'POST', '/documents/reprocess', { document_ids: ids, stages: ['classify'], mode: 'all' }),
      202,
    );
    expect(await waitForBatch(t, actor, classified.id)).toMatchObject({ completed: 2, skipped: 0, skips: [] });

    // Start-up says it once, with the fix.
    const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
    expect(
      await t.deps.documents.checkEmbedder({
        warn: ((obj: Record<string, unknown>, msg: string) => {
          warnings.push({ obj, msg });
        }) as never,
      }),
    ).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].obj).toMatchObject({ model: 'docpipe-test/late-model', code: 'not_found' });
    expect(warnings[0].msg).toContain(`${modelDir}/docpipe-test/late-model (EMBEDDING_MODEL_DIR)`);
    expect(warnings[0].msg).toContain('ALLOW_MODEL_DOWNLOAD=true');
    expect(warnings[0].msg).toContain('--stage embed --missing');

    // The operator puts the model in place and restarts the service.
    await generateTinyModel(modelDir, 'docpipe-test/late-model');
    await t.close();
    t = await createDocsApp({ testDb, config });
    const batch = dataOf(
      await api(t, actor, 'POST', '/documents/reprocess', {
        project_id: projectId,
        stages: ['embed'],
        mode: 'missing',
      }),
      202,
    );
    expect(batch.total).toBe(2);
    expect(await waitForBatch(t, actor, batch.id)).toMatchObject({ completed: 2, failed: 0 });
    for (const id of ids) {
      const d = dataOf(await api(t, actor, 'GET', `/documents/${id}`));
      expect(d.status).toBe('completed');
      expect(d.timestamps.embedded_at).toBeTruthy();
      expect(d.models.embedding_model).toBe('docpipe-test/late-model');
      expect(d.pipeline.notes.embed).toBeUndefined();
      expect(await stageRunCounts(t.deps, id)).toEqual({ parse: 1, embed: 3, classify: 2, extract: 1 });
    }
    const { rows } = await t.deps.db.query<{ n: number }>(
      'SELECT count(*) AS n FROM document_chunks WHERE document_id = ANY($1::text[])',
      [ids],
    );
    expect(Number(rows[0].n)).toBeGreaterThanOrEqual(2);
    expect(dataOf(await api(t, actor, 'GET', '/ready')).components.embeddings.status).toBe('ok');
    const quiet: unknown[] = [];
    expect(
      await t.deps.documents.checkEmbedder({
        warn: ((...a: unknown[]) => {
          quiet.push(a);
        }) as never,
      }),
    ).toBe(true);
    expect(quiet).toEqual([]);
    const again = dataOf(
      await api(t, actor, 'POST', '/documents/reprocess', {
        project_id: projectId,
        stages: ['embed'],
        mode: 'missing',
      }),
      202,
    );
    expect(again.total).toBe(0);

    // Embedding again replaces the chunks: same indexes rewritten, none duplicated, and a
    // chunk beyond the new run's count (left by a longer earlier text) removed.
    const chunks = async (id: string) =>
      (
        await testDb.db.query<{ chunk_index: number; content: string }>(
          'SELECT chunk_index, content FROM document_chunks WHERE document_id = $1 ORDER BY chunk_index',
          [id],
        )
      ).rows;
    const before = await chunks(ids[0]);
    await t.deps.db.query(
      `INSERT INTO document_chunks (document_id, chunk_index, content, embedding, model_id) VALUES ($1, 99, 'stale', '{0.5}', 'old')`,
      [ids[0]],
    );
    dataOf(await api(t, actor, 'POST', `/documents/${ids[0]}/reprocess`, { stages: ['embed'] }), 202);
    expect((await waitForDocument(t, ids[0])).status).toBe('completed');
    expect(await chunks(ids[0])).toEqual(before);
  });
});
