// The parse stage hands an uploaded message's file to the attachment step, and leaves mail
// from a mailbox alone (mail intake has applied the mailbox's own attachment rules already).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DocumentRow } from '../../../src/modules/documents/documents.types.js';
import { attachmentDepth } from '../../../src/modules/documents/eml-attachments.js';
import { parseStage } from '../../../src/modules/documents/stages/parse.stage.js';
import { createPdfEngine } from '../../../src/pipeline/parse/index.js';
import { createFsBlobStore } from '../../../src/storage/fs-blob-store.js';
import { attachmentPart, buildMessage, multipart, textPart } from '../../helpers/mail-fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'docpipe-parse-eml-'));
// Started on first use only; no PDF is parsed here.
const pdf = createPdfEngine();
afterAll(async () => {
  await pdf.close();
  rmSync(root, { recursive: true, force: true });
});

describe('parse stage and e-mail attachments', () => {
  const blobs = createFsBlobStore(root);
  const calls: string[] = [];
  const compute = parseStage({
    blobs,
    maxPages: 10,
    ocr: async () => undefined,
    pdf: () => pdf,
    attachments: async (doc) => {
      calls.push(doc.id);
      return [
        { filename: 'a.txt', content_type: 'text/plain', size_bytes: 3, outcome: 'created', document_id: 'doc_child' },
      ];
    },
  });
  const raw = buildMessage({
    subject: 'Report',
    body: multipart('mixed', [
      textPart('See attached.'),
      attachmentPart({ content: Buffer.from('abc'), contentType: 'text/plain', filename: 'a.txt' }),
    ]),
  });

  async function docFor(source: DocumentRow['source'], data: Buffer, filename = 'mail.eml'): Promise<DocumentRow> {
    const blob = await blobs.putBuffer(data);
    await blobs.release(blob);
    return {
      id: `doc_${source}_${calls.length}`,
      storage_key: blob.key,
      filename,
      source,
      source_metadata: { note: 'kept' },
    } as unknown as DocumentRow;
  }

  it('records the attachments of an uploaded message next to its own text', async () => {
    const doc = await docFor('upload', raw);
    const out = await compute(doc, null, {} as never);
    expect(calls).toEqual([doc.id]);
    expect(out.cols.text_content).toContain('See attached.');
    expect(out.cols.source_metadata).toEqual({
      note: 'kept',
      attachments: [expect.objectContaining({ filename: 'a.txt', document_id: 'doc_child' })],
    });
  });

  it('leaves mail from a mailbox and files that are not messages alone', async () => {
    calls.length = 0;
    const fromMailbox = await compute(await docFor('email', raw), null, {} as never);
    expect(fromMailbox.cols.source_metadata).toBeUndefined();
    const text = await compute(
      await docFor('upload', Buffer.from('Dear Ann,\nthanks.\n'), 'note.txt'),
      null,
      {} as never,
    );
    expect(text.cols.source_metadata).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('reads the nesting depth from the source metadata, 0 when absent or malformed', () => {
    expect(attachmentDepth({ source_metadata: {} })).toBe(0);
    expect(attachmentDepth({ source_metadata: { attachment_depth: 2 } })).toBe(2);
    expect(attachmentDepth({ source_metadata: { attachment_depth: '9' } })).toBe(0);
    expect(attachmentDepth({ source_metadata: { attachment_depth: -1 } })).toBe(0);
  });
});
