import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createPipelineApp, createProject, upload, waitForDocument, type PipelineApp } from '../../helpers/pipeline.js';

const INVOICE = [
  [
    'ACME Supplies GmbH',
    'Invoice',
    'Invoice No: INV-2024-0042',
    'Invoice date: 05.03.2024',
    'Due date: 04.04.2024',
    'Bill to: Example Customer Ltd',
    'Description\tQty\tUnit price\tAmount',
    'Paper A4\t10\t4.50\t45.00',
    'Toner\t2\t60.00\t120.00',
    'Subtotal: 165.00 EUR',
    'VAT 19%: 31.35 EUR',
    'Total: 196.35 EUR',
    'IBAN: DE89 3704 0044 0532 0130 00',
  ],
];

describe.each(dbKinds())('pipeline end to end (%s)', (kind) => {
  let t: PipelineApp;
  let actor: Actor;
  beforeAll(async () => {
    t = await createPipelineApp(kind);
    actor = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an uploaded invoice PDF is parsed, embedded, classified and extracted', async () => {
    const projectId = await createProject(t, actor);
    const pdf = await makeTextPdf({ pages: INVOICE });
    const res = await upload(t, actor, projectId, 'invoice.pdf', pdf);
    expect(res.statusCode).toBe(201);
    const doc = body(res).data;
    expect(doc.status).toBe('uploaded');
    const done = await waitForDocument(t, doc.id);
    expect(done.status).toBe('completed');
    const got = body(
      await t.app.inject({ method: 'GET', url: `/api/v1/documents/${doc.id}`, headers: actor.auth }),
    ).data;
    expect(got.classification.type).toBe('invoice');
    expect(got.fields.invoice_number.value).toBe('INV-2024-0042');
    expect(got.timestamps.parsed_at).toBeTruthy();
    expect(got.timestamps.embedded_at).toBeTruthy();
    expect(got.models.embedding_model).toBe('docpipe-test/tiny-bert');
    const events = body(
      await t.app.inject({ method: 'GET', url: `/api/v1/events?document_id=${doc.id}`, headers: actor.auth }),
    ).data;
    expect(events.map((e: { type: string }) => e.type).sort()).toEqual([
      'document.classified',
      'document.extracted',
      'document.processed',
      'document.uploaded',
    ]);
    const last = events.find((e: { type: string }) => e.type === 'document.extracted');
    expect(last.data.status).toBe('completed');
    expect(last.data.classification.type).toBe('invoice');
    // duplicate detection
    const again = await upload(t, actor, projectId, 'copy.pdf', pdf);
    expect(again.statusCode).toBe(200);
    expect(body(again).data.duplicate).toBe(true);
    expect(body(again).data.id).toBe(doc.id);
  });
});
