import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPdfEngine,
  createTesseractOcr,
  OcrError,
  parseDocument,
  ParseError,
  layoutText,
  packLayout,
  positionIndex,
  type Ocr,
} from '../../../src/pipeline/parse/index.js';
import { attachPositions, extractFields, parseTemplateYaml } from '../../../src/pipeline/extract/index.js';
import { makeScannedPdf, makeTextPdf, renderTextPng } from '../../helpers/pdf-fixtures.js';

/** A small page keeps rendering cheap in tests. */
const SMALL = { pageSize: [300, 120] as [number, number] };
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

async function parseError(p: Promise<unknown>): Promise<ParseError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ParseError);
  return err as ParseError;
}

/** Records what it is given and answers with canned text. */
function fakeOcr(answer: (image: Buffer) => Promise<string>): Ocr & { images: Buffer[] } {
  const images: Buffer[] = [];
  return {
    images,
    async recognize(image) {
      images.push(image);
      return { text: await answer(image), confidence: 0.9 };
    },
    async close() {},
  };
}

describe('OCR with tesseract.js (offline)', () => {
  let ocr: Ocr;
  beforeAll(() => {
    ocr = createTesseractOcr({ workers: 1 });
  });
  afterAll(async () => {
    await ocr.close();
  });

  it('recognises the words in an image', async () => {
    const png = await renderTextPng(['INVOICE 4711', 'Total due 99.50 EUR']);
    const r = await parseDocument({ bytes: png, maxPages: 10 }, { ocr });
    expect(r).toMatchObject({ mimeType: 'image/png', pages: 1, ocrPages: 1 });
    expect(r.text).toMatch(/INVOICE\s+4711/);
    expect(r.text).toMatch(/Total due 99\.50 EUR/);
  });

  it('keeps word boxes of a scanned PDF page: positions in pixels, and a template matches the OCR text', async () => {
    const pdf = createPdfEngine();
    try {
      const scanned = await makeScannedPdf([['Lakeside Printing Co', 'Invoice No 5521', 'Total due 99.50']], {
        pageSize: [420, 200],
      });
      const r = await parseDocument({ bytes: scanned, maxPages: 5 }, { ocr, pdf });
      expect(r.ocrPages).toBe(1);
      const layout = packLayout(r.layout ?? [], r.ocrWords);
      const tpl = parseTemplateYaml(
        'issuer: Lakeside Printing Co\nkeywords: [Lakeside Printing]\nfields:\n  amount: Total due\\s+([\\d.]+)\n  invoice_number: Invoice No\\s+(\\d+)\n',
      );
      if (!tpl.ok) throw new Error('template');
      const x = extractFields({
        text: r.text,
        templateText: layoutText(layout, r.text),
        type: 'invoice',
        templates: tpl.templates,
      });
      expect(x.method).toBe('template');
      expect(x.fields.amount.value).toBe(99.5);
      const placed = attachPositions(x.fields, positionIndex(r.text, layout));
      const p = placed.amount.position as { page: number; bbox: number[]; unit: string };
      expect(p).toMatchObject({ page: 1, unit: 'px' });
      // Rendered at 150 dpi: the amount sits on the third line, right of the label.
      const number = placed.invoice_number.position as { bbox: number[] };
      expect(p.bbox[1]).toBeGreaterThan(number.bbox[1]);
      expect(p.bbox[2]).toBeGreaterThan(p.bbox[0]);
    } finally {
      await pdf.close();
    }
  });

  it('fails an image that claims to be PNG but cannot be decoded as CORRUPT', async () => {
    const bytes = Buffer.concat([PNG_MAGIC, Buffer.from([0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
    const err = await parseError(parseDocument({ bytes, maxPages: 10 }, { ocr }));
    expect(err.code).toBe('CORRUPT');
  });

  it('kills a worker that exceeds its time limit instead of hanging', async () => {
    const impatient = createTesseractOcr({ timeoutMs: 20 });
    try {
      const png = await renderTextPng(['slow']);
      const err = await impatient.recognize(png).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OcrError);
      expect((err as OcrError).kind).toBe('timeout');
    } finally {
      await impatient.close();
    }
    await expect(impatient.recognize(Buffer.alloc(1))).rejects.toMatchObject({ kind: 'closed' });
  });
});

describe('OCR inside the parse stage (fake engine)', () => {
  const pdf = createPdfEngine();
  afterAll(() => pdf.close());

  it('OCRs only the text-less pages of a PDF, using rendered PNGs', async () => {
    const textPage = await makeTextPdf({ pages: [['This page has a real text layer with enough characters']] });
    const scanned = await makeScannedPdf([['scanned words']], SMALL);
    // Two separate PDFs: the text one must not call OCR at all, the scanned one once.
    const ocr = fakeOcr(async () => 'Recognised text from the scan');
    const a = await parseDocument({ bytes: textPage, maxPages: 5 }, { ocr, pdf });
    expect(a.ocrPages).toBe(0);
    expect(ocr.images).toHaveLength(0);
    const b = await parseDocument({ bytes: scanned, maxPages: 5 }, { ocr, pdf });
    expect(b).toMatchObject({ pages: 1, ocrPages: 1, text: 'Recognised text from the scan' });
    expect(ocr.images).toHaveLength(1);
    expect(ocr.images[0].subarray(0, 4).equals(PNG_MAGIC)).toBe(true);
  });

  it('renders a scanned page that also carries a few characters in a non-embedded standard font', async () => {
    // Standard fonts are left as names (no font program is loaded): such a page must still
    // render to a PNG for OCR rather than fail.
    const doc = await PDFDocument.load(await makeScannedPdf([['scanned words']], SMALL));
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.getPage(0).drawText('p. 1', { x: 10, y: 10, size: 10, font });
    const ocr = fakeOcr(async () => 'Recognised text from the scan');
    const r = await parseDocument({ bytes: Buffer.from(await doc.save()), maxPages: 5 }, { ocr, pdf });
    expect(r).toMatchObject({ pages: 1, ocrPages: 1 });
    expect(r.text).toContain('Recognised text from the scan');
    expect(ocr.images).toHaveLength(1);
    expect(ocr.images[0].subarray(0, 4).equals(PNG_MAGIC)).toBe(true);
  });

  it('fails with a retryable OCR_FAILED when OCR hangs past the page limit', async () => {
    const ocr = fakeOcr(() => new Promise<string>(() => undefined));
    const png = await renderTextPng(['x']);
    const err = await parseError(parseDocument({ bytes: png, maxPages: 5 }, { ocr }, { ocrPageTimeoutMs: 100 }));
    expect(err.code).toBe('OCR_FAILED');
    expect(err.permanent).toBe(false);
  });

  it('fails with a retryable OCR_FAILED when OCR of a scanned page crashes', async () => {
    const ocr = fakeOcr(async () => {
      throw new OcrError('failed', 'worker died');
    });
    const err = await parseError(
      parseDocument({ bytes: await makeScannedPdf([['x']], SMALL), maxPages: 5 }, { ocr, pdf }),
    );
    expect(err.code).toBe('OCR_FAILED');
    expect(err.permanent).toBe(false);
  });

  it('fails an image as EMPTY when OCR finds nothing, and as OCR_FAILED without an engine', async () => {
    const png = await renderTextPng(['x']);
    const empty = await parseError(parseDocument({ bytes: png, maxPages: 5 }, { ocr: fakeOcr(async () => '  \n') }));
    expect(empty.code).toBe('EMPTY');
    const none = await parseError(parseDocument({ bytes: png, maxPages: 5 }, {}));
    expect(none).toMatchObject({ code: 'OCR_FAILED', permanent: true });
  });
});

describe('OCR workers when unused', () => {
  it('stop after idleTimeoutMs, giving their memory back, and start again for the next image', async () => {
    const ocr = createTesseractOcr({ workers: 1, idleTimeoutMs: 200 });
    try {
      const png = await renderTextPng(['INVOICE 4711']);
      expect(ocr.running!()).toBe(0);
      expect((await ocr.recognize(png)).text).toMatch(/INVOICE\s+4711/);
      expect(ocr.running!()).toBe(1);
      await expect.poll(() => ocr.running!(), { timeout: 10_000 }).toBe(0);
      expect((await ocr.recognize(png)).text).toMatch(/INVOICE\s+4711/);
      expect(ocr.running!()).toBe(1);
    } finally {
      await ocr.close();
    }
    expect(ocr.running!()).toBe(0);
  });
});
