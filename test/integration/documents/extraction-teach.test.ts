// Issue 24 through the API: a matching template classifies a document the classifier is unsure
// of, every value read from a document carries its position (PDF boxes, text offsets), and
// POST /templates/learn builds a template from a corrected document that then reads the
// issuer's next documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { makeTextPdf } from '../../helpers/pdf-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { api, dataOf, errorCode } from './fixtures.js';

const receipt = (date: string, total: string) =>
  [
    'KEDAI RUNCIT MAJU JAYA',
    '(770001-K)',
    'LOT 12, JALAN PASAR, 43000 KAJANG',
    `Date: ${date}`,
    'Sugar 1kg        3.20',
    'Bread            4.50',
    `TOTAL:    RM ${total}`,
    'Thank you, please come again',
  ].join('\n');

describe.each(dbKinds())('extraction people can see and teach (%s)', (kind) => {
  let t: DocsApp;
  let actor: Actor;
  let other: Actor;
  let project: string;
  beforeAll(async () => {
    t = await createDocsApp({ kind });
    actor = await createActor(t);
    other = await createActor(t);
    project = await createProject(t, actor, { name: 'Teach', classification_threshold: 0 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const send = async (name: string, text: string | Buffer, projectId = project) => {
    const id = dataOf(
      await upload(t, actor, projectId, name, typeof text === 'string' ? Buffer.from(text) : text),
      201,
    ).id;
    await waitForDocument(t, id, 45_000);
    return dataOf(await api(t, actor, 'GET', `/documents/${id}`));
  };

  it('gives text offsets into GET /documents/{id}/text for values read from text', { timeout: 60_000 }, async () => {
    const doc = await send('r1.txt', receipt('12/03/2018', '7.70'));
    const text = dataOf(await api(t, actor, 'GET', `/documents/${doc.id}/text`)).text as string;
    const total = doc.fields.total;
    expect(total.value).toBe(7.7);
    expect(text.slice(total.position.start, total.position.end)).toBe('7.70');
    const date = doc.fields.date;
    expect(text.slice(date.position.start, date.position.end)).toBe('12/03/2018');
    // Every value read from the text has one (tables per cell).
    for (const [name, f] of Object.entries(doc.fields as Record<string, { position?: unknown; cells?: unknown }>))
      if (name !== 'currency') expect(f.position ?? f.cells, name).toBeDefined();
  });

  it('gives page boxes in points for values read from a PDF', { timeout: 60_000 }, async () => {
    const pdf = await makeTextPdf({
      pages: [['Harbor Office Supplies', 'Invoice No: HB-1001', 'Invoice Date: 05.03.2024', 'Total: 88.40 EUR']],
    });
    const doc = await send('inv.pdf', pdf);
    const p = doc.fields.invoice_number.position;
    expect(p).toMatchObject({ page: 1, unit: 'pt' });
    const [x0, y0, x1, y1] = p.bbox as number[];
    expect(x1).toBeGreaterThan(x0);
    expect(y1).toBeGreaterThan(y0);
    // Lines run down the page: the total's box is below the invoice number's.
    expect(doc.fields.total.position.bbox[1]).toBeGreaterThan(y0);
  });

  it(
    'learns a template from a corrected receipt; it classifies and reads the issuer’s next one',
    { timeout: 90_000 },
    async () => {
      const first = await send('r2.txt', receipt('02/04/2018', '12.90'));
      const patched = await api(t, actor, 'PATCH', `/documents/${first.id}`, {
        fields: { merchant: 'Kedai Runcit Maju Jaya', total: 12.9, date: '2018-04-02' },
      });
      expect(patched.statusCode).toBe(200);

      const learned = await api(t, actor, 'POST', '/templates/learn', { document_id: first.id, name: 'Maju Jaya' });
      const tpl = dataOf(learned, 201);
      expect(tpl.name).toBe('Maju Jaya');
      expect(tpl.definition.keywords[0]).toBe('KEDAI\\s+RUNCIT\\s+MAJU\\s+JAYA');
      expect(tpl.definition.fields.total).toMatchObject({ type: 'float' });
      expect(tpl.definition.options.date_formats).toEqual(['%d/%m/%Y']);
      // Exportable like any other template.
      const listed = dataOf(await api(t, actor, 'GET', `/templates/${tpl.id}`));
      expect(listed.definition.keywords).toEqual(tpl.definition.keywords);

      // A project that would send every document to review: the template's match classifies it.
      const strict = await createProject(t, actor, { name: 'Strict', classification_threshold: 0.999 });
      const next = await send('r3.txt', receipt('19/08/2019', '104.35'), strict);
      expect(next.status).toBe('completed');
      expect(next.classification).toMatchObject({ type: 'receipt', method: 'template' });
      expect(next.models.template_id).toBe(tpl.id);
      expect(next.fields.total).toMatchObject({ value: 104.35, method: 'template' });
      expect(next.fields.date.value).toBe('2019-08-19');
      expect(next.fields.total.position).toBeDefined();
    },
  );

  it(
    'answers 422 naming each corrected field not in the text, 404 for another organization’s document',
    { timeout: 60_000 },
    async () => {
      const doc = await send('r4.txt', receipt('03/05/2018', '5.10'));
      await api(t, actor, 'PATCH', `/documents/${doc.id}`, { fields: { total: 51.5, date: '2017-01-01' } });
      const bad = await api(t, actor, 'POST', '/templates/learn', { document_id: doc.id });
      expect(bad.statusCode).toBe(422);
      expect(errorCode(bad)).toBe('UNPROCESSABLE');
      expect(
        bad
          .json()
          .error.details.map((d: { field: string }) => d.field)
          .sort(),
      ).toEqual(['fields.date', 'fields.total']);
      const foreign = await api(t, other, 'POST', '/templates/learn', { document_id: doc.id });
      expect(foreign.statusCode).toBe(404);
      expect((await api(t, actor, 'POST', '/templates/learn', {})).statusCode).toBe(400);
    },
  );

  it(
    'keeps a position when a value is accepted as it is, takes one given with a correction, refuses a bad one',
    { timeout: 60_000 },
    async () => {
      const doc = await send('r5.txt', receipt('07/06/2018', '9.99'));
      const before = doc.fields.total.position;
      const ok = dataOf(
        await api(t, actor, 'PATCH', `/documents/${doc.id}`, {
          fields: { total: { value: 9.99 }, date: { value: '2018-06-07', position: { start: 0, end: 5 } } },
        }),
      );
      expect(ok.fields.total).toMatchObject({ confirmed: true, position: before });
      expect(ok.fields.date.position).toEqual({ start: 0, end: 5 });
      const bad = await api(t, actor, 'PATCH', `/documents/${doc.id}`, {
        fields: { total: { value: 1, position: { page: 0, bbox: [1, 2], unit: 'pt' } } },
      });
      expect(bad.statusCode).toBe(400);
    },
  );
});
