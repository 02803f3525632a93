// Images browsers cannot show as OCR read them: a TIFF (no browser shows it) and a phone photo
// stored sideways with an EXIF orientation. Both are turned upright before OCR, so the words are
// read and their boxes lie on the upright picture, which GET /documents/{id}/preview serves as a
// PNG, for the dashboard to draw the boxes on.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActor, createKey, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { makeTextPdf, renderTextPng } from '../../helpers/pdf-fixtures.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { api, dataOf } from './fixtures.js';

const LINES = ['Lakeside Paper Company', 'INVOICE', 'Invoice No: LK-40917', 'Order ref: PO-61234', 'Total: 42.50 EUR'];

interface Page {
  page: number;
  unit: 'pt' | 'px';
  width?: number;
  height?: number;
  words: Array<{ text: string; bbox: [number, number, number, number] }>;
}

describe.each(dbKinds())('image previews and upright OCR (%s)', (kind) => {
  let t: DocsApp;
  let actor: Actor;
  let other: Actor;
  let project: string;
  let png: Buffer;
  let size: [number, number];
  beforeAll(async () => {
    t = await createDocsApp({ kind });
    actor = await createActor(t);
    other = await createActor(t);
    project = await createProject(t, actor, { name: 'Scans', classification_threshold: 0 });
    png = await renderTextPng(LINES, { dpi: 200, pageSize: [420, 180] });
    size = [png.readUInt32BE(16), png.readUInt32BE(20)];
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const send = async (name: string, data: Buffer, status = 'completed') => {
    const id = dataOf(await upload(t, actor, project, name, data), 201).id as string;
    const doc = await waitForDocument(t, id, 90_000);
    expect(doc.status, JSON.stringify(doc.error)).toBe(status);
    return id;
  };
  const preview = (id: string, who: Actor = actor, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1/documents/${id}/preview`, headers: { ...who.auth, ...headers } });
  const pageOf = async (id: string) =>
    (dataOf(await api(t, actor, 'GET', `/documents/${id}/words`)).pages as Page[])[0];

  it('reads a TIFF and serves its first page as a PNG the word boxes fit', { timeout: 120_000 }, async () => {
    const tif = await sharp(png).tiff({ compression: 'lzw' }).toBuffer();
    const id = await send('scan.tif', tif);
    const p = await pageOf(id);
    expect(p).toMatchObject({ page: 1, unit: 'px', width: size[0], height: size[1] });
    expect(p.words.find((w) => w.text === 'PO-61234')).toBeDefined();

    const res = await preview(id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const body = res.rawPayload;
    expect(body.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([body.readUInt32BE(16), body.readUInt32BE(20)]).toEqual(size);
    // The browser's copy is still good: the same ETag answers 304.
    const again = await preview(id, actor, { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('turns a sideways photo upright by its EXIF orientation before OCR', { timeout: 120_000 }, async () => {
    // Stored a quarter turn anticlockwise; orientation 6 tells viewers to turn it clockwise.
    const photo = await sharp(png).rotate(270).jpeg({ quality: 92 }).withMetadata({ orientation: 6 }).toBuffer();
    const id = await send('photo.jpg', photo);
    const p = await pageOf(id);
    // Boxes are measured in the upright picture (wider than tall), as a browser shows the photo.
    expect(p).toMatchObject({ unit: 'px', width: size[0], height: size[1] });
    const ref = p.words.find((w) => w.text === 'PO-61234');
    expect(ref, JSON.stringify(p.words.map((w) => w.text))).toBeDefined();
    const no = p.words.find((w) => w.text === 'LK-40917')!;
    // Upright: the invoice number's line is above the order reference's.
    expect(no.bbox[1]).toBeLessThan(ref!.bbox[1]);
    const doc = dataOf(await api(t, actor, 'GET', `/documents/${id}`));
    expect(doc.fields.invoice_number?.value).toBe('LK-40917');

    const res = await preview(id);
    expect(res.statusCode).toBe(200);
    expect([res.rawPayload.readUInt32BE(16), res.rawPayload.readUInt32BE(20)]).toEqual(size);
  });

  it(
    'has no preview for a PDF (409), and refuses an image that cannot be decoded (422)',
    { timeout: 120_000 },
    async () => {
      const pdf = await send('inv.pdf', await makeTextPdf({ pages: [LINES] }));
      const res = await preview(pdf);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'CONFLICT' } });
      // A TIFF header over nothing: sniffed as a TIFF, fails at parse, and has no preview.
      const broken = Buffer.concat([Buffer.from('II*\0\x08\0\0\0', 'latin1'), Buffer.alloc(64)]);
      const id = await send('broken.tif', broken, 'failed');
      const bad = await preview(id);
      expect(bad.statusCode).toBe(422);
      expect(bad.json()).toMatchObject({ success: false, error: { code: 'UNPROCESSABLE' } });
    },
  );

  it(
    'answers 404 for another organization’s document, another mode’s and an unknown id',
    { timeout: 120_000 },
    async () => {
      const id = await send('mine.png', png);
      expect((await preview(id)).statusCode).toBe(200);
      expect((await preview(id, other)).statusCode).toBe(404);
      const testKey = await createKey(t, actor, { name: 'sandbox', environment: 'test' });
      expect((await preview(id, { auth: bearer(testKey.key) } as Actor)).statusCode).toBe(404);
      expect((await preview('doc_nope')).statusCode).toBe(404);
    },
  );
});
