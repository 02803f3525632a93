// An uploaded e-mail is handled like mail intake: the message stays a document (its text is
// the message) and each attachment becomes a document of its own, linked to it in its source
// metadata; inline images and signatures are skipped the way a mailbox skips them, project
// rules apply to the attachments, a re-run finds its own documents instead of making new
// ones, and messages nested in messages stop fanning out at a fixed depth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, eventually, type DocsApp } from '../../helpers/docs-app.js';
import {
  attachmentPart,
  buildMessage,
  messagePart,
  multipart,
  textPart,
  tinyPdf,
  TINY_PNG,
} from '../../helpers/mail-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { MAX_ATTACHMENT_DEPTH } from '../../../src/modules/documents/eml-attachments.js';
import { api, dataOf, invoiceText } from './fixtures.js';

function mailWithAttachments(tag: string): Buffer {
  return buildMessage({
    from: 'Ann Lee <ann@supplier.example>',
    subject: `Invoice and receipt ${tag}`,
    body: multipart('mixed', [
      multipart('related', [
        textPart(`<p>Hello, please find our invoice ${tag} attached.</p><img src="cid:logo">`, { subtype: 'html' }),
        attachmentPart({
          content: TINY_PNG,
          contentType: 'image/png',
          filename: 'logo.png',
          disposition: 'inline',
          contentId: 'logo',
        }),
      ]),
      attachmentPart({
        content: Buffer.from(invoiceText(tag)),
        contentType: 'text/plain',
        filename: `invoice-${tag}.txt`,
      }),
      attachmentPart({
        content: tinyPdf(`Invoice ${tag} Total 119.00 EUR`),
        contentType: 'application/pdf',
        filename: `scan-${tag}.pdf`,
      }),
      attachmentPart({
        content: Buffer.from('-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----\n'),
        contentType: 'application/pgp-signature',
        filename: 'signature.asc',
      }),
    ]),
  });
}

async function documentsOf(t: DocsApp, projectId: string): Promise<Array<Record<string, any>>> {
  const { rows } = await t.deps.db.query<Record<string, any>>(
    'SELECT id, filename, source, source_metadata, status, mime_type FROM documents WHERE project_id = $1 ORDER BY created_at, id',
    [projectId],
  );
  return rows;
}

describe.each(dbKinds())('uploaded e-mail (%s)', (kind) => {
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

  it('makes a document of every attachment, linked to the message, which keeps its own text', async () => {
    const projectId = await createProject(t, actor);
    const parentId = dataOf(await upload(t, actor, projectId, 'mail.eml', mailWithAttachments('A-1')), 201).id;
    const parent = await waitForDocument(t, parentId);
    expect(parent.status).not.toBe('failed');
    expect(parent.mime_type).toBe('message/rfc822');
    expect(parent.text_content).toContain('please find our invoice A-1 attached');

    const docs = await documentsOf(t, projectId);
    const children = docs.filter((d) => d.id !== parentId);
    expect(children.map((d) => d.filename).sort()).toEqual(['invoice-A-1.txt', 'scan-A-1.pdf']);
    for (const c of children) {
      expect(c.source).toBe('upload');
      expect(c.source_metadata).toMatchObject({
        parent_document_id: parentId,
        attachment_depth: 1,
        part: 'attachment',
        sender: 'ann@supplier.example',
        subject: 'Invoice and receipt A-1',
      });
      expect((await waitForDocument(t, c.id)).status).not.toBe('failed');
    }
    const outcomes = parent.source_metadata.attachments as Array<Record<string, any>>;
    expect(
      outcomes
        .filter((o) => o.outcome === 'created')
        .map((o) => o.document_id)
        .sort(),
    ).toEqual(children.map((c) => c.id).sort());
    expect(
      outcomes
        .filter((o) => o.outcome === 'skipped')
        .map((o) => [o.filename, o.reason])
        .sort(),
    ).toEqual([
      ['logo.png', 'inline'],
      ['signature.asc', 'signature'],
    ]);

    // Through the API, with the link, and not to another organisation.
    const child = dataOf(await api(t, actor, 'GET', `/documents/${children[0].id}`));
    expect(child.source_metadata.parent_document_id).toBe(parentId);
    expect((await api(t, other, 'GET', `/documents/${children[0].id}`)).statusCode).toBe(404);

    // Parsing the message again finds the same documents instead of making new ones.
    dataOf(await api(t, actor, 'POST', `/documents/${parentId}/reprocess`, { stages: ['parse'] }), 202);
    const after = await eventually(async () => {
      const row = (
        await t.deps.db.query<Record<string, any>>(
          'SELECT status, version, parsed_at, source_metadata FROM documents WHERE id = $1',
          [parentId],
        )
      ).rows[0];
      return row.version > parent.version && ['completed', 'needs_review'].includes(row.status) ? row : null;
    }, 'the message to be parsed again');
    expect(after.parsed_at.getTime()).toBeGreaterThan(parent.parsed_at.getTime());
    expect((await documentsOf(t, projectId)).length).toBe(3);
    expect(
      (after.source_metadata.attachments as Array<Record<string, any>>)
        .filter((o) => o.outcome === 'created')
        .map((o) => o.document_id)
        .sort(),
    ).toEqual(children.map((c) => c.id).sort());
  });

  it('applies the project rules to the attachments: a type the project does not take is skipped', async () => {
    const projectId = await createProject(t, actor, { allowed_file_types: ['eml', 'message/rfc822', 'pdf'] });
    const parentId = dataOf(await upload(t, actor, projectId, 'mail.eml', mailWithAttachments('B-2')), 201).id;
    const parent = await waitForDocument(t, parentId);
    const docs = await documentsOf(t, projectId);
    expect(docs.map((d) => d.filename).sort()).toEqual(['mail.eml', 'scan-B-2.pdf']);
    const skipped = (parent.source_metadata.attachments as Array<Record<string, any>>).find(
      (o) => o.filename === 'invoice-B-2.txt',
    );
    expect(skipped).toMatchObject({ outcome: 'skipped', reason: 'type_not_allowed' });
  });

  it('follows messages attached to messages down to a fixed depth, no further', async () => {
    const projectId = await createProject(t, actor);
    let raw = buildMessage({
      subject: 'level 6',
      body: multipart('mixed', [
        textPart('innermost'),
        attachmentPart({ content: Buffer.from(invoiceText('deep')), contentType: 'text/plain', filename: 'deep.txt' }),
      ]),
    });
    for (let level = 5; level >= 1; level--) {
      raw = buildMessage({
        subject: `level ${level}`,
        body: multipart('mixed', [textPart(`message at level ${level}`), messagePart(raw, `level-${level + 1}.eml`)]),
      });
    }
    const topId = dataOf(await upload(t, actor, projectId, 'level-1.eml', raw), 201).id;
    await waitForDocument(t, topId);
    // Each attached message is parsed in turn; wait until the chain has settled.
    const deadline = Date.now() + 60_000;
    let docs = await documentsOf(t, projectId);
    while (
      docs.length < MAX_ATTACHMENT_DEPTH + 1 ||
      docs.some((d) => !['completed', 'needs_review', 'failed'].includes(d.status))
    ) {
      if (Date.now() > deadline)
        throw new Error(`chain did not settle: ${JSON.stringify(docs.map((d) => [d.filename, d.status]))}`);
      await new Promise((r) => setTimeout(r, 100));
      docs = await documentsOf(t, projectId);
    }
    expect(docs.map((d) => d.filename)).toEqual(['level-1.eml', 'level-2.eml', 'level-3.eml', 'level-4.eml']);
    expect(docs.map((d) => d.source_metadata.attachment_depth ?? 0)).toEqual([0, 1, 2, 3]);
    const deepest = docs[3];
    expect(deepest.source_metadata.attachments).toEqual([
      expect.objectContaining({ filename: 'level-5.eml', outcome: 'skipped', reason: 'nested_too_deep' }),
    ]);
  });
});
