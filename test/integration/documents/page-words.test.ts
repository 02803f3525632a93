// Issue 24, "see it" for images: GET /documents/{id}/words gives the words of each page with
// their boxes — a PDF's text layer in points, an image's or a scanned page's OCR words in pixels
// of the image read (with its size) — so the dashboard can draw them as clickable regions. And
// the review queue of fields: GET /documents?fields_unconfirmed=true.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActor, createKey, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { makeScannedPdf, makeTextPdf, renderTextPng } from '../../helpers/pdf-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { api, dataOf, invoiceText } from './fixtures.js';

interface Page {
  page: number;
  unit: 'pt' | 'px';
  width?: number;
  height?: number;
  words: Array<{ text: string; bbox: [number, number, number, number] }>;
}

const LINES = ['Lakeside Paper Company', 'INVOICE', 'Invoice No: LK-40917', 'Total: 42.50 EUR'];

describe.each(dbKinds())('page words and the fields review queue (%s)', (kind) => {
  let t: DocsApp;
  let actor: Actor;
  let other: Actor;
  let project: string;
  beforeAll(async () => {
    t = await createDocsApp({ kind });
    actor = await createActor(t);
    other = await createActor(t);
    project = await createProject(t, actor, { name: 'Words', classification_threshold: 0 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const send = async (name: string, data: Buffer) => {
    const id = dataOf(await upload(t, actor, project, name, data), 201).id as string;
    const doc = await waitForDocument(t, id, 90_000);
    expect(doc.status, JSON.stringify(doc.error)).toBe('completed');
    return id;
  };
  const wordsOf = async (id: string) => dataOf(await api(t, actor, 'GET', `/documents/${id}/words`)).pages as Page[];
  const find = (p: Page, text: string) => p.words.find((w) => w.text === text);

  it('gives an image’s OCR words in pixels of the image, with its size', { timeout: 120_000 }, async () => {
    const png = await renderTextPng(LINES, { dpi: 200, pageSize: [420, 160] });
    const id = await send('scan.png', png);
    const pages = await wordsOf(id);
    expect(pages).toHaveLength(1);
    const [p] = pages;
    // The PNG's own size, read from its header.
    expect(p).toMatchObject({ page: 1, unit: 'px', width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
    const no = find(p, 'LK-40917');
    expect(no, JSON.stringify(p.words.map((w) => w.text))).toBeDefined();
    const [x0, y0, x1, y1] = no!.bbox;
    expect(x0).toBeGreaterThanOrEqual(0);
    expect(x1).toBeGreaterThan(x0);
    expect(y1).toBeGreaterThan(y0);
    expect(x1).toBeLessThanOrEqual(p.width!);
    // Lines run down the image: the total is below the number.
    expect(find(p, '42.50')!.bbox[1]).toBeGreaterThan(y1);
    // The field read from it sits on the same word.
    const doc = dataOf(await api(t, actor, 'GET', `/documents/${id}`));
    expect(doc.fields.invoice_number?.position).toMatchObject({ page: 1, unit: 'px' });
    expect(doc.fields.invoice_number.position.bbox).toEqual(no!.bbox);
  });

  it('gives a scanned PDF page’s OCR words with the size of the image read', { timeout: 120_000 }, async () => {
    const id = await send('scan.pdf', await makeScannedPdf([LINES], { dpi: 150, pageSize: [420, 160] }));
    const [p] = await wordsOf(id);
    expect(p).toMatchObject({ page: 1, unit: 'px' });
    // Rendered for OCR at 200 dpi: 420 × 160 points are about 1167 × 444 pixels.
    expect(Math.abs(p.width! - (420 * 200) / 72)).toBeLessThan(2);
    expect(Math.abs(p.height! - (160 * 200) / 72)).toBeLessThan(2);
    expect(find(p, 'LK-40917')!.bbox[2]).toBeLessThanOrEqual(p.width!);
  });

  it('gives a PDF’s text-layer words in points; a text document has none', { timeout: 60_000 }, async () => {
    const id = await send('inv.pdf', await makeTextPdf({ pages: [LINES] }));
    const [p] = await wordsOf(id);
    expect(p).toMatchObject({ page: 1, unit: 'pt' });
    expect(p.width).toBeUndefined();
    const doc = dataOf(await api(t, actor, 'GET', `/documents/${id}`));
    // Field positions and clickable words share their boxes.
    const no = p.words.find((w) => w.text.includes('LK-40917'));
    expect(no).toBeDefined();
    expect(doc.fields.invoice_number.position.bbox[3]).toBe(no!.bbox[3]);

    const txt = await send('inv.txt', Buffer.from(invoiceText(7)));
    expect(await wordsOf(txt)).toEqual([]);
  });

  it('answers 404 for another organization’s document, another mode’s and an unknown id', async () => {
    const txt = await send('w.txt', Buffer.from(invoiceText(8)));
    expect((await api(t, other, 'GET', `/documents/${txt}/words`)).statusCode).toBe(404);
    const testKey = await createKey(t, actor, { name: 'sandbox', environment: 'test' });
    expect((await api(t, { auth: bearer(testKey.key) }, 'GET', `/documents/${txt}/words`)).statusCode).toBe(404);
    expect((await api(t, actor, 'GET', '/documents/doc_nope/words')).statusCode).toBe(404);
  });

  it('lists documents with fields no person confirmed yet, and drops them once confirmed', async () => {
    const id = await send('queue.txt', Buffer.from(invoiceText(9)));
    const queue = async (flag: boolean) =>
      (
        dataOf(
          await api(t, actor, 'GET', `/documents?project_id=${project}&fields_unconfirmed=${flag}&per_page=100`),
        ) as Array<{ id: string }>
      ).map((d) => d.id);
    expect(await queue(true)).toContain(id);
    expect(await queue(false)).not.toContain(id);
    const doc = dataOf(await api(t, actor, 'GET', `/documents/${id}`));
    const all = Object.fromEntries(
      Object.entries(doc.fields as Record<string, { value: unknown }>).map(([k, f]) => [k, { value: f.value }]),
    );
    expect(Object.keys(all).length).toBeGreaterThan(1);
    // One field confirmed: still waiting; all of them: out of the queue.
    const [firstName] = Object.keys(all);
    dataOf(await api(t, actor, 'PATCH', `/documents/${id}`, { fields: { [firstName]: all[firstName] } }));
    expect(await queue(true)).toContain(id);
    dataOf(await api(t, actor, 'PATCH', `/documents/${id}`, { fields: all }));
    expect(await queue(true)).not.toContain(id);
    expect(await queue(false)).toContain(id);
  });
});
