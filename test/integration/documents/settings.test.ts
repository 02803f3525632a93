// Project settings applied by the pipeline (auto_classify, auto_extract, classification
// threshold with a person's correction, retention) and extraction templates (CRUD, YAML
// import, keyword selection and the project's default template).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from '../../../workers/maintenance.js';
import { packageRoot } from '../../../src/lib/package-root.js';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, stageRunCounts, type DocsApp } from '../../helpers/docs-app.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { api, dataOf, errorCode, eventTypes, INVOICE_LINES, invoiceText, RECEIPT_TEXT } from './fixtures.js';

const ACME_YAML = readFileSync(join(packageRoot(), 'samples', 'templates', 'acme-widgets.yml'), 'utf8');

describe.each(dbKinds())('project settings and templates (%s)', (kind) => {
  let t: DocsApp;
  let actor: Actor;
  const uploadAndWait = async (projectId: string, name: string, data: Buffer) => {
    const d = dataOf(await upload(t, actor, projectId, name, data), 201);
    await waitForDocument(t, d.id);
    return dataOf(await api(t, actor, 'GET', `/documents/${d.id}`));
  };

  beforeAll(async () => {
    t = await createDocsApp({ kind });
    actor = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('auto_classify=false skips classification, auto_extract=false skips extraction', async () => {
    const noClassify = await createProject(t, actor, { name: 'No classify', auto_classify: false });
    const noExtract = await createProject(t, actor, { name: 'No extract', auto_extract: false });
    const [a, b] = await Promise.all([
      uploadAndWait(noClassify, 'a.txt', Buffer.from(invoiceText('a'))),
      uploadAndWait(noExtract, 'b.txt', Buffer.from(invoiceText('b'))),
    ]);
    expect(a.status).toBe('completed');
    expect(a.classification).toBeNull();
    expect(a.timestamps.classified_at).toBeNull();
    expect(a.timestamps.extracted_at).toBeTruthy();
    expect(a.pipeline.stages).toEqual(['parse', 'embed', 'extract']);
    expect(await eventTypes(t, actor, a.id)).toEqual(['document.extracted', 'document.processed', 'document.uploaded']);
    expect(await stageRunCounts(t.deps, a.id)).toEqual({ parse: 1, embed: 1, extract: 1 });

    expect(b.status).toBe('completed');
    expect(b.classification.type).toBe('invoice');
    expect(b.fields).toBeNull();
    expect(b.timestamps.extracted_at).toBeNull();
    expect(await eventTypes(t, actor, b.id)).toEqual([
      'document.classified',
      'document.processed',
      'document.uploaded',
    ]);
    expect(await stageRunCounts(t.deps, b.id)).toEqual({ parse: 1, embed: 1, classify: 1 });
  });

  it('a confidence under the project threshold stops in needs_review; a correction lets it continue', async () => {
    const strict = await createProject(t, actor, { name: 'Strict', classification_threshold: 0.99 });
    // A short cover note with an amount: no type is clear-cut.
    const note = 'Please find attached the documents we discussed.\nInvoice No: RE-2024-nr\nTotal 10.00';
    const d = await uploadAndWait(strict, 'cover-note.txt', Buffer.from(note));
    expect(d.status).toBe('needs_review');
    expect(typeof d.classification.type).toBe('string');
    expect(d.classification.confidence).toBeLessThan(0.99);
    expect(d.fields).toBeNull();
    expect(d.pipeline.notes.classify).toMatch(/below the project threshold 0\.99/);
    expect(
      dataOf(await api(t, actor, 'GET', `/documents?project_id=${strict}&status=needs_review`)).map((x: any) => x.id),
    ).toEqual([d.id]);

    const patched = dataOf(await api(t, actor, 'PATCH', `/documents/${d.id}`, { classification: { type: 'invoice' } }));
    expect(patched.classification).toMatchObject({ type: 'invoice', confidence: 1, method: 'manual', confirmed: true });
    await waitForDocument(t, d.id, 30_000, new Set(['completed', 'failed']));
    const done = dataOf(await api(t, actor, 'GET', `/documents/${d.id}`));
    expect(done.status).toBe('completed');
    expect(done.classification).toMatchObject({ type: 'invoice', method: 'manual', confirmed: true });
    expect(done.fields.invoice_number.value).toBe('RE-2024-nr');
    expect(await eventTypes(t, actor, d.id)).toEqual([
      'document.classified',
      'document.classified',
      'document.extracted',
      'document.processed',
      'document.uploaded',
    ]);
  });

  it('retention deletes documents older than retention_days with their files and document.deleted events', async () => {
    const keep30 = await createProject(t, actor, { name: 'Thirty days', retention_days: 30 });
    const forever = await createProject(t, actor, { name: 'Forever' });
    const old = await uploadAndWait(keep30, 'old.txt', Buffer.from(RECEIPT_TEXT + '\nold'));
    const fresh = await uploadAndWait(keep30, 'fresh.txt', Buffer.from(RECEIPT_TEXT + '\nfresh'));
    const ancient = await uploadAndWait(forever, 'ancient.txt', Buffer.from(RECEIPT_TEXT + '\nancient'));
    await t.deps.db.query(`UPDATE documents SET created_at = now() - interval '40 days' WHERE id = ANY($1::text[])`, [
      [old.id, ancient.id],
    ]);
    const file = (sha: string) => join(t.config.dataDir, 'files', sha.slice(0, 2), sha.slice(2, 4), sha);
    expect(existsSync(file(old.sha256))).toBe(true);

    expect(await applyRetention(t.deps)).toBe(1);
    expect((await api(t, actor, 'GET', `/documents/${old.id}`)).statusCode).toBe(404);
    expect(existsSync(file(old.sha256))).toBe(false);
    const deleted = dataOf(await api(t, actor, 'GET', `/events?type=document.deleted&document_id=${old.id}`));
    expect(deleted).toHaveLength(1);
    expect(deleted[0].data).toMatchObject({ documentId: old.id, projectId: keep30 });
    for (const kept of [fresh, ancient])
      expect((await api(t, actor, 'GET', `/documents/${kept.id}`)).statusCode).toBe(200);
    expect(existsSync(file(fresh.sha256))).toBe(true);
    expect(await applyRetention(t.deps)).toBe(0);
    const stats = dataOf(await api(t, actor, 'GET', `/projects/${keep30}/stats`));
    expect(stats.total_documents).toBe(1);
  });

  it('manages templates: create, import YAML, read, update (new version), delete', async () => {
    const created = dataOf(
      await api(t, actor, 'POST', '/templates', {
        issuer: 'Tiny Co',
        name: 'tiny',
        keywords: ['Tiny Co'],
        fields: { reference: 'Ref:\\s*(\\S+)' },
      }),
      201,
    );
    expect(created).toMatchObject({ id: expect.stringMatching(/^tpl_/), name: 'tiny', issuer: 'Tiny Co', version: 1 });
    const invalid = await api(t, actor, 'POST', '/templates', {
      issuer: 'Bad',
      keywords: ['x'],
      fields: { a: '(unclosed' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(errorCode(invalid)).toBe('VALIDATION_ERROR');
    expect((await api(t, actor, 'POST', '/templates/import', { yaml: 'issuer: [unclosed' })).statusCode).toBe(400);

    const imported = dataOf(await api(t, actor, 'POST', '/templates/import', { yaml: ACME_YAML }), 201);
    expect(imported).toHaveLength(1);
    expect(imported[0]).toMatchObject({ name: 'acme-widgets', issuer: 'ACME Widgets Ltd', priority: 6, version: 1 });
    const listed = await api(t, actor, 'GET', '/templates');
    expect(listed.json().pagination.total).toBe(2);
    expect(
      dataOf(await api(t, actor, 'GET', `/templates/${imported[0].id}`)).definition.fields.invoice_number,
    ).toBeTruthy();

    const updated = dataOf(
      await api(t, actor, 'PUT', `/templates/${created.id}`, {
        issuer: 'Tiny Co',
        name: 'tiny',
        keywords: ['Tiny Co'],
        fields: { reference: 'Reference:\\s*(\\S+)' },
      }),
    );
    expect(updated.version).toBe(2);
    expect(dataOf(await api(t, actor, 'DELETE', `/templates/${created.id}`))).toEqual({
      id: created.id,
      deleted: true,
    });
    expect((await api(t, actor, 'GET', `/templates/${created.id}`)).statusCode).toBe(404);
    // Another organization sees none of them.
    expect(dataOf(await api(t, await createActor(t), 'GET', '/templates'))).toEqual([]);
  });

  it('uses a matching template for extraction, and the project default template for others', async () => {
    const acme = dataOf(await api(t, actor, 'GET', '/templates')).find((x: any) => x.name === 'acme-widgets');
    expect(acme).toBeTruthy();
    const badDefault = await api(t, actor, 'POST', '/projects', {
      name: 'Bad default',
      default_template_id: 'tpl_doesnotexist',
    });
    expect(badDefault.statusCode).toBe(400);
    expect(JSON.stringify(body400(badDefault))).toContain('default_template_id');

    const fallback = dataOf(
      await api(t, actor, 'POST', '/templates', {
        issuer: 'Any supplier',
        name: 'house-default',
        keywords: ['ZZ-NEVER-PRESENT'],
        fields: { our_reference: 'Invoice No:\\s*(\\S+)' },
      }),
      201,
    );
    const projectId = await createProject(t, actor, { name: 'With default', default_template_id: fallback.id });
    expect((await api(t, actor, 'DELETE', `/templates/${fallback.id}`)).statusCode).toBe(409);

    const byKeywords = await uploadAndWait(projectId, 'acme.pdf', await makeTextPdf({ pages: [INVOICE_LINES] }));
    expect(byKeywords.status).toBe('completed');
    expect(byKeywords.models).toMatchObject({ template_id: acme.id, template_version: 1 });
    expect(byKeywords.fields.invoice_number).toMatchObject({ value: 'INV-2024-0042', method: 'template' });
    expect(byKeywords.fields.amount).toMatchObject({ value: 198, method: 'template' });
    expect(byKeywords.fields.vat_number).toMatchObject({ value: 'GB 123 4567 89', method: 'template' });

    const byDefault = await uploadAndWait(projectId, 'northwind.txt', Buffer.from(invoiceText('77')));
    expect(byDefault.models.template_id).toBe(fallback.id);
    expect(byDefault.fields.our_reference).toMatchObject({ value: 'RE-2024-77', method: 'template' });

    const plain = await createProject(t, actor, { name: 'No default' });
    const generic = await uploadAndWait(plain, 'northwind.txt', Buffer.from(invoiceText('78')));
    expect(generic.models.template_id).toBeNull();
    expect(generic.fields.our_reference).toBeUndefined();
    expect(generic.fields.invoice_number).toMatchObject({ value: 'RE-2024-78' });
    expect(generic.fields.invoice_number.method).not.toBe('template');
  });
});

function body400(res: { json(): any }) {
  return res.json().error;
}
