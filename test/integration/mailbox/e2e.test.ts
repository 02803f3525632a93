// End to end with the real pipeline: a message APPENDed to Dovecot becomes completed documents,
// is moved to processed_folder afterwards, and the events carry the e-mail metadata. The poller
// runs as the `mail` role through startWorkers, as in `docpipe worker`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForDocument } from '../../helpers/pipeline.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { attachmentPart, buildMessage, multipart, textPart } from '../../helpers/mail-fixtures.js';
import { createMailHarness, eventually, type MailHarness } from '../../helpers/mail-harness.js';

let h: MailHarness;

beforeAll(async () => {
  h = await createMailHarness({ users: ['e2e'], pipeline: true });
  await h.startWorkers(['parse', 'embed', 'classify', 'extract', 'mail']);
});
afterAll(async () => {
  await h?.close();
});

const INVOICE = [
  'ACME Supplies GmbH',
  'Invoice',
  'Invoice No: INV-2024-0042',
  'Invoice date: 05.03.2024',
  'Due date: 04.04.2024',
  'Bill to: Example Customer Ltd',
  'Subtotal: 165.00 EUR',
  'VAT 19%: 31.35 EUR',
  'Total: 196.35 EUR',
];

describe('e-mail to completed documents', () => {
  it('a PDF and a text attachment become completed documents; the mail moves to processed_folder', async () => {
    const projectId = await h.createProject({ classification_threshold: 0 });
    const mailbox = await h.createMailbox('e2e', {
      project_id: projectId,
      after_processing: 'move',
      processed_folder: 'Processed',
    });
    const raw = buildMessage({
      from: 'ACME Billing <billing@acme.example>',
      subject: 'Invoice INV-2024-0042',
      messageId: 'inv-0042@acme.example',
      date: new Date('2024-03-05T09:30:00Z'),
      body: multipart('mixed', [
        textPart('Please find the invoice attached.\r\n'),
        attachmentPart({
          filename: 'INV-2024-0042.pdf',
          contentType: 'application/pdf',
          content: await makeTextPdf({ pages: [INVOICE] }),
        }),
        attachmentPart({
          filename: 'remittance.txt',
          contentType: 'text/plain',
          content: Buffer.from('Remittance advice for invoice INV-2024-0042, total 196.35 EUR.\n'),
        }),
      ]),
    });
    await h.dovecot.appendMessage('e2e', 'INBOX', raw);

    const docs = await eventually(async () => {
      const d = await h.documents(projectId);
      return d.length === 2 && d;
    }, 'two documents');
    expect(docs.map((d) => d.filename).sort()).toEqual(['INV-2024-0042.pdf', 'remittance.txt']);
    const done = await Promise.all(docs.map((d) => waitForDocument(h, d.id, 40_000)));
    expect(done.map((d) => d.status)).toEqual(['completed', 'completed']);

    const [record] = await eventually(async () => {
      const m = await h.messages(mailbox.id);
      return m[0]?.action_done_at && m;
    }, 'the message record');
    expect(record).toMatchObject({
      status: 'consumed',
      message_id: '<inv-0042@acme.example>',
      sender: 'billing@acme.example',
      subject: 'Invoice INV-2024-0042',
      action: 'move',
    });
    expect([...record.document_ids].sort()).toEqual(docs.map((d) => d.id).sort());
    // Moved only after the documents existed; nothing left in the inbox.
    expect(record.action_done_at!.getTime()).toBeGreaterThanOrEqual(record.processed_at!.getTime());
    expect(await h.dovecot.listFolder('e2e', 'INBOX')).toEqual([]);
    expect((await h.dovecot.listFolder('e2e', 'Processed')).map((m) => m.subject)).toEqual(['Invoice INV-2024-0042']);

    for (const d of docs) {
      expect(d.source).toBe('email');
      const events = (await h.api('GET', `/events?document_id=${d.id}`)).body.data as { type: string; data: any }[];
      const uploaded = events.find((e) => e.type === 'document.uploaded');
      expect(uploaded?.data.source).toBe('email');
      expect(uploaded?.data.sourceMetadata).toMatchObject({
        sender: 'billing@acme.example',
        sender_name: 'ACME Billing',
        subject: 'Invoice INV-2024-0042',
        message_id: '<inv-0042@acme.example>',
        date: '2024-03-05T09:30:00.000Z',
        mailbox_id: mailbox.id,
        mailbox_message_id: record.id,
      });
    }
    const api = (await h.api('GET', `/integrations/mailboxes/${mailbox.id}/messages`)).body;
    expect(api.data[0]).toMatchObject({ status: 'consumed', subject: 'Invoice INV-2024-0042' });
    expect(api.data[0].parts.map((p: { outcome: string }) => p.outcome)).toEqual(['created', 'created']);
    const box = (await h.api('GET', `/integrations/mailboxes/${mailbox.id}`)).body.data;
    expect(box.status).toBe('active');
    expect(box.last_checked_at).not.toBeNull();
  });
});
