// An uploaded e-mail is still accepted when it carries an archive or an executable: the message
// becomes a document, its readable attachments too, and the never-processable ones are skipped
// and recorded (the same refusal an upload gets, as a part outcome).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { attachmentPart, buildMessage, multipart, textPart } from '../../helpers/mail-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { writeZip } from '../../unit/parse/fixtures/zip.js';

describe('uploaded e-mail with an archive and an executable attached', () => {
  let t: DocsApp;
  let actor: Actor;
  beforeAll(async () => {
    t = await createDocsApp({ kind: 'pglite' });
    actor = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the message and the text attachment; skips the zip and the ELF file as type_not_allowed', async () => {
    const projectId = await createProject(t, actor);
    const raw = buildMessage({
      from: 'Ann Lee <ann@supplier.example>',
      subject: 'Invoice Z-1',
      body: multipart('mixed', [
        textPart('Invoice Z-1 attached, with the scans zipped.'),
        attachmentPart({
          content: Buffer.from('Invoice Z-1\nTotal 42.00 EUR\n'),
          contentType: 'text/plain',
          filename: 'invoice-Z-1.txt',
        }),
        attachmentPart({
          content: writeZip([{ name: 'scan.pdf', data: '%PDF-1.4 nothing' }]),
          contentType: 'application/zip',
          filename: 'scans.zip',
        }),
        attachmentPart({
          content: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(256, 1)]),
          contentType: 'application/octet-stream',
          filename: 'tool',
        }),
      ]),
    });
    const res = await upload(t, actor, projectId, 'mail.eml', raw);
    expect(res.statusCode, res.body).toBe(201);
    const parent = await waitForDocument(t, res.json().data.id);
    expect(parent.status).not.toBe('failed');
    const outcomes = parent.source_metadata.attachments as Array<Record<string, any>>;
    const of = (name: string) => outcomes.find((o) => o.filename === name);
    expect(of('invoice-Z-1.txt')).toMatchObject({ outcome: 'created' });
    expect(of('scans.zip')).toMatchObject({ outcome: 'skipped', reason: 'type_not_allowed' });
    expect(of('tool')).toMatchObject({ outcome: 'skipped', reason: 'type_not_allowed' });
    const { rows } = await t.deps.db.query<{ filename: string }>(
      'SELECT filename FROM documents WHERE project_id = $1 ORDER BY filename',
      [projectId],
    );
    expect(rows.map((r) => r.filename)).toEqual(['invoice-Z-1.txt', 'mail.eml']);
  });
});
