// The whole service with BLOB_STORE_URL=s3://…: an upload through the API lands in the bucket
// (not in DATA_DIR), the pipeline parses it from there, the original streams back from there,
// and deleting the last document that uses the file removes the object.
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { startLocalS3, type LocalS3 } from '../../helpers/s3.js';
import { api, dataOf, INVOICE_LINES } from './fixtures.js';

describe('documents on an S3 blob store (s3rver)', () => {
  let s3: LocalS3;
  let t: DocsApp;
  let actor: Actor;
  const prefix = 'e2e/files';
  const objects = async () => {
    const page = await s3.client().send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${prefix}/` }));
    return (page.Contents ?? []).map((o) => o.Key!.slice(prefix.length + 1)).sort();
  };

  beforeAll(async () => {
    s3 = await startLocalS3();
    t = await createDocsApp({ env: s3.env(prefix) });
    actor = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('uploads into the bucket, processes the document from it, serves it back, and removes it with the document', async () => {
    const projectId = await createProject(t, actor);
    const pdf = await makeTextPdf({ pages: [INVOICE_LINES] });
    const doc = dataOf(await upload(t, actor, projectId, 'invoice.pdf', pdf), 201);
    const done = await waitForDocument(t, doc.id);
    expect(done.status).toBe('completed');
    const key = done.storage_key as string;
    expect(await objects()).toEqual([`blobs/${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`]);
    expect(existsSync(join(t.config.dataDir, 'files'))).toBe(false);

    const shown = dataOf(await api(t, actor, 'GET', `/documents/${doc.id}`));
    expect(shown.classification.type).toBe('invoice');
    expect((await api(t, actor, 'GET', `/documents/${doc.id}/text`)).json().data.text).toContain('INV-2024-0042');
    const content = await api(t, actor, 'GET', `/documents/${doc.id}/content`);
    expect(content.statusCode).toBe(200);
    expect(content.rawPayload.equals(pdf)).toBe(true);

    // A second document with the same bytes shares the object; it goes with the last of them.
    const twin = dataOf(await upload(t, actor, projectId, 'copy.pdf', pdf, { allow_duplicate: 'true' }), 201);
    await waitForDocument(t, twin.id);
    expect(await objects()).toHaveLength(1);
    expect((await api(t, actor, 'DELETE', `/documents/${doc.id}`)).statusCode).toBe(200);
    expect(await objects()).toHaveLength(1);
    expect((await api(t, actor, 'DELETE', `/documents/${twin.id}`)).statusCode).toBe(200);
    expect(await objects()).toEqual([]);
  });
});
