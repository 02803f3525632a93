// The attachment budget of an uploaded message: however its messages nest, one upload makes at
// most ATTACHMENT_BUDGET documents. The intake here records what it is handed and answers like
// document intake (created, or the same document again for bytes it already has), so the
// bound is checked without a database; the integration test runs the real path.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DocumentRow } from '../../../src/modules/documents/documents.types.js';
import { ATTACHMENT_BUDGET, createAttachmentDocuments } from '../../../src/modules/documents/eml-attachments.js';
import type { IntakeInput, IntakeResult } from '../../../src/modules/documents/intake.js';
import { attachmentPart, buildMessage, messagePart, multipart, textPart } from '../../helpers/mail-fixtures.js';

function recordingIntake() {
  const bySha = new Map<string, DocumentRow>();
  const made: Array<{ data: Buffer; input: IntakeInput; doc: DocumentRow }> = [];
  return {
    made,
    async fromBuffer(data: Buffer, input: IntakeInput): Promise<IntakeResult> {
      const sha = createHash('sha256').update(data).digest('hex');
      const known = bySha.get(sha);
      if (known) return { kind: 'duplicate', document: known };
      const doc = {
        id: `doc_${made.length + 1}`,
        org_id: 'org_1',
        environment: 'live',
        project_id: input.projectId,
        source: input.source,
        source_metadata: input.sourceMetadata ?? {},
        uploaded_by: null,
        filename: input.filename,
      } as unknown as DocumentRow;
      bySha.set(sha, doc);
      made.push({ data, input, doc });
      return { kind: 'created', document: doc };
    },
  };
}

const root = {
  id: 'doc_root',
  org_id: 'org_1',
  environment: 'live',
  project_id: 'prj_1',
  source: 'upload',
  source_metadata: {},
  uploaded_by: null,
} as unknown as DocumentRow;

function messageWithFiles(tag: string, n: number): Buffer {
  return buildMessage({
    subject: `files ${tag}`,
    body: multipart('mixed', [
      textPart('see attached'),
      ...Array.from({ length: n }, (_, i) =>
        attachmentPart({
          content: Buffer.from(`file ${tag}-${i}\n`),
          contentType: 'text/plain',
          filename: `${tag}-${i}.txt`,
        }),
      ),
    ]),
  });
}

describe('attachment budget', () => {
  it('shares what the upload may still make between the messages attached to it', async () => {
    const intake = recordingIntake();
    const top = buildMessage({
      subject: 'three forwarded',
      body: multipart('mixed', [
        textPart('three messages'),
        ...['a', 'b', 'c'].map((t) => messagePart(messageWithFiles(t, 60), `${t}.eml`)),
      ]),
    });
    const first = await createAttachmentDocuments({ intake }, root, top);
    expect(first.map((o) => o.outcome)).toEqual(['created', 'created', 'created']);
    const share = Math.floor((ATTACHMENT_BUDGET - 3) / 3);
    for (const m of intake.made)
      expect(m.input.sourceMetadata).toMatchObject({
        parent_document_id: 'doc_root',
        attachment_depth: 1,
        attachment_budget: share,
      });

    for (const m of [...intake.made]) {
      const parts = await createAttachmentDocuments({ intake }, m.doc, m.data);
      expect(parts.filter((o) => o.outcome === 'created')).toHaveLength(share);
      expect(parts.filter((o) => o.outcome === 'skipped' && o.reason === 'too_many')).toHaveLength(60 - share);
    }
    expect(intake.made.length).toBe(3 + 3 * share);
    expect(intake.made.length).toBeLessThanOrEqual(ATTACHMENT_BUDGET);
  });

  it('takes the same parts again on a re-run and reports them as its own', async () => {
    const intake = recordingIntake();
    const raw = messageWithFiles('r', 3);
    const once = await createAttachmentDocuments({ intake }, root, raw);
    const twice = await createAttachmentDocuments({ intake }, root, raw);
    expect(twice).toEqual(once);
    expect(intake.made).toHaveLength(3);
  });

  it('drops control characters from the header values it stores (jsonb refuses NUL)', async () => {
    const intake = recordingIntake();
    const raw = buildMessage({
      rawSubject: `=?utf-8?B?${Buffer.from('Rechnung\u0000 Mai').toString('base64')}?=`,
      body: multipart('mixed', [
        textPart('x'),
        attachmentPart({ content: Buffer.from('nul test'), contentType: 'text/plain', filename: 'n.txt' }),
      ]),
    });
    await createAttachmentDocuments({ intake }, root, raw);
    expect(intake.made[0].input.sourceMetadata?.subject).toBe('Rechnung Mai');
  });

  it('a message whose bytes cannot be read as mail has no attachments', async () => {
    const intake = recordingIntake();
    expect(await createAttachmentDocuments({ intake }, root, Buffer.from('not a message at all'))).toEqual([]);
    expect(intake.made).toHaveLength(0);
  });
});
