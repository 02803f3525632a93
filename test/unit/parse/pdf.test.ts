import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createPdfEngine,
  parseDocument,
  ParseError,
  PAGE_SEPARATOR,
  type ParseResult,
} from '../../../src/pipeline/parse/index.js';
import { reconstructLines } from '../../../src/pipeline/parse/pdf-lines.js';
import {
  makeImagePdf,
  makeManyPagePdf,
  makePng,
  makeSelfPaintingPdf,
  makeTextPdf,
} from '../../helpers/pdf-fixtures.js';

const CORPUS_PDF = path.resolve(import.meta.dirname, '../../../../shared/corpora/robustness/pdf');

// One long-lived reader for the file, as the service wires it; started on first use.
const pdf = createPdfEngine();
afterAll(() => pdf.close());

const parse = (bytes: Buffer, maxPages = 50): Promise<ParseResult> => parseDocument({ bytes, maxPages }, { pdf });

async function parseError(bytes: Buffer, maxPages = 50): Promise<ParseError> {
  const err = await parse(bytes, maxPages).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ParseError);
  return err as ParseError;
}

describe('PDF text layer', () => {
  it('reads a 3-column table row by row even when drawn column by column', async () => {
    const rows = ['Item\tQty\tPrice', 'Apples\t3\t1.20', 'Bananas\t12\t0.30', 'Cherries (kg)\t1\t7.95'];
    const pdf = await makeTextPdf({
      pages: [['INVOICE 2026-17', '', ...rows, '', 'Total due: 21.09']],
      drawOrder: 'columns',
    });
    const r = await parse(pdf);
    expect(r).toMatchObject({ mimeType: 'application/pdf', pages: 1, ocrPages: 0 });
    const lines = r.text.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toEqual(['INVOICE 2026-17', ...rows, 'Total due: 21.09']);
  });

  it('keeps pages in order, separated by form feeds', async () => {
    const pdf = await makeTextPdf({
      pages: [['First page says hello'], ['Second page, middle'], ['Third page ends the document']],
    });
    const r = await parse(pdf);
    expect(r.pages).toBe(3);
    expect(r.text.split(PAGE_SEPARATOR)).toEqual([
      'First page says hello',
      'Second page, middle',
      'Third page ends the document',
    ]);
    expect(r.text.split('\f').map((p) => p.trim())).toHaveLength(3);
  });

  it('reads WinAnsi characters of a non-embedded standard font (no font program is loaded for text)', async () => {
    const lines = ['Grüße aus Köln, Straße 5', 'Betrag: 1.234,56 € — “bezahlt” (ÄÖÜ äöü ß é ñ)', '‰ • … ‘quoted’ ±2°'];
    const r = await parse(await makeTextPdf({ pages: [lines] }));
    expect(r.text.split('\n').filter((l) => l.trim() !== '')).toEqual(lines);
  });

  it('guesses the language of the text', async () => {
    const pdf = await makeTextPdf({
      pages: [
        [
          'Sehr geehrte Damen und Herren,',
          'die Rechnung ist nicht bezahlt und wir bitten um',
          'die Zahlung auf das Konto bei der Bank.',
        ],
      ],
    });
    expect((await parse(pdf)).language).toBe('de');
  });

  it('fails a password-protected PDF as ENCRYPTED (permanent)', async () => {
    const pdf = await makeTextPdf({ pages: [['secret']], encrypt: true });
    const err = await parseError(pdf);
    expect(err.code).toBe('ENCRYPTED');
    expect(err.permanent).toBe(true);
  });

  it.skipIf(!existsSync(CORPUS_PDF))('fails real password-protected PDFs from the corpus as ENCRYPTED', async () => {
    for (const name of ['pdfjs__issue6010_1.pdf', 'pypdf-samples__libreoffice-writer-password.pdf']) {
      const file = path.join(CORPUS_PDF, name);
      if (!existsSync(file)) continue;
      expect((await parseError(readFileSync(file))).code, name).toBe('ENCRYPTED');
    }
  });

  it('fails a truncated PDF as CORRUPT', async () => {
    const pdf = await makeTextPdf({ pages: [['Some text'], ['More text']] });
    const err = await parseError(pdf.subarray(0, Math.floor(pdf.length / 2)));
    expect(err.code).toBe('CORRUPT');
    expect(err.permanent).toBe(true);
  });

  it('fails a header-only PDF as CORRUPT', async () => {
    expect((await parseError(Buffer.from('%PDF-1.7\n%garbage'))).code).toBe('CORRUPT');
  });

  // Fails fast: the page count is read from the page tree before any page is touched. The test
  // timeout (a second or two of real work would be far too slow for 10,000 pages) is the guard.
  it('fails a 10,000-page PDF with TOO_MANY_PAGES before reading pages', { timeout: 5_000 }, async () => {
    const pdf = makeManyPagePdf(10_000);
    const err = await parseError(pdf, 500);
    expect(err.code).toBe('TOO_MANY_PAGES');
    expect(err.message).toContain('10000');
  });

  it('reads every page of a PDF at the page limit', async () => {
    const r = await parse(makeManyPagePdf(20), 20);
    expect(r.pages).toBe(20);
    expect(r.text.split('\f').map((p) => p.trim())).toEqual(Array.from({ length: 20 }, (_, i) => `Page ${i + 1}`));
  });

  it('without OCR, fails an image-only PDF with a permanent OCR_FAILED', async () => {
    const pdf = await makeImagePdf([makePng(200, 100, (x) => (x % 20 < 10 ? 0 : 255))]);
    const err = await parseError(pdf);
    expect(err.code).toBe('OCR_FAILED');
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/OCR/);
  });

  it('fails a PDF with only blank pages as EMPTY', async () => {
    const pdf = await makeTextPdf({ pages: [[], []] });
    expect((await parseError(pdf)).code).toBe('EMPTY');
  });
});

describe('PDF reader isolation', () => {
  it('works without a shared reader (one worker per document)', async () => {
    const r = await parseDocument({ bytes: await makeTextPdf({ pages: [['standalone']] }), maxPages: 5 }, {});
    expect(r.text).toBe('standalone');
  });

  it('contains a PDF that makes pdf.js allocate without end, and keeps serving', async () => {
    const small = createPdfEngine({ maxHeapMb: 48 });
    try {
      const err = await parseDocument({ bytes: makeSelfPaintingPdf(), maxPages: 5 }, { pdf: small }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ParseError);
      expect((err as ParseError).code).toBe('TOO_LARGE');
      expect((err as ParseError).message).toMatch(/memory/);
      // The dead process is replaced on next use.
      const r = await parseDocument(
        { bytes: await makeTextPdf({ pages: [['still alive']] }), maxPages: 5 },
        { pdf: small },
      );
      expect(r.text).toBe('still alive');
    } finally {
      await small.close();
    }
  });

  it('kills a reader that spends longer than the page limit on one page', async () => {
    const hasty = createPdfEngine({ pageTimeoutMs: 300 });
    try {
      // Starting the worker and loading pdf.js is not counted against the page limit.
      const err = await parseDocument({ bytes: makeSelfPaintingPdf(), maxPages: 5 }, { pdf: hasty }).catch(
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'CORRUPT', permanent: true });
      expect((err as Error).message).toMatch(/longer than 300 ms/);
    } finally {
      await hasty.close();
    }
  });

  it('stops reading when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('job cancelled'));
    const err = await parseDocument(
      { bytes: makeManyPagePdf(3), maxPages: 5 },
      { pdf },
      { signal: controller.signal },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: 'job cancelled' });
    expect(err).not.toBeInstanceOf(ParseError);
  });
});

describe('reconstructLines', () => {
  const item = (str: string, x: number, y: number, size = 10, width = str.length * size * 0.5) => ({
    str,
    transform: [size, 0, 0, size, x, y],
    width,
    height: size,
  });
  const page = [1, 0, 0, -1, 0, 800]; // viewport of an unrotated 800-pt-high page

  it('clusters by baseline with a tolerance relative to font size, tabs for wide gaps', () => {
    const items = [
      item('Total', 300, 698),
      item('Name', 50, 700),
      item('EUR', 330, 701.5, 8),
      item('Acme', 50, 686),
      item('12.00', 300, 686),
      item('Ltd', 75, 686),
    ];
    expect(reconstructLines(items, page)).toBe('Name\tTotal EUR\nAcme Ltd\t12.00');
  });

  it('joins pieces of one word without a space and drops whitespace-only items', () => {
    const items = [
      item('Inv', 50, 700, 10, 15),
      item('oice', 65, 700, 10, 20),
      item('   ', 85, 700),
      item('7', 88, 700, 10, 5),
    ];
    expect(reconstructLines(items, page)).toBe('Invoice 7');
  });

  it('marks paragraph breaks with a blank line', () => {
    expect(reconstructLines([item('One', 50, 700), item('Two', 50, 688), item('Three', 50, 600)], page)).toBe(
      'One\nTwo\n\nThree',
    );
  });

  it('reads a page whose text runs top to bottom (rotated 90°)', () => {
    // Text direction (0, -1) in PDF space: rotated so that it reads downwards on screen.
    const rot = (str: string, x: number, y: number) => ({
      str,
      transform: [0, -10, 10, 0, x, y],
      width: str.length * 5,
      height: 10,
    });
    const items = [rot('second', 88, 700), rot('first', 100, 700), rot('line', 100, 670)];
    expect(reconstructLines(items, page)).toBe('first line\nsecond');
  });
});
