import { ParseError } from './errors.js';
import type { Ocr } from './ocr.js';
import { reconstructLines, type LineOptions, type RawTextItem } from './pdf-lines.js';
import { renderPageToPng, type RasterOptions } from './pdf-raster.js';
import { openPdf, type PDFPageProxy } from './pdfjs.js';
import { withTimeout } from './timeout.js';

/** OCR settings for text-less pages. */
export interface PdfOcrOptions extends RasterOptions {
  engine: Ocr;
  /** OCR time limit per page (on top of rendering). Default 60,000 ms. */
  pageTimeoutMs?: number;
  /** Pages rendered ahead while earlier ones are being recognised. Default 2. */
  concurrency?: number;
}

/** Options for {@link extractPdfText}. */
export interface PdfTextOptions {
  /** Documents with more pages fail with TOO_MANY_PAGES before any page is read. */
  maxPages: number;
  /** A page with fewer non-space characters counts as text-less (an OCR candidate). Default 16. */
  minTextChars?: number;
  /** Time limit for reading one page's text layer. Default 30,000 ms. */
  pageTimeoutMs?: number;
  lines?: LineOptions;
  /** Without it, text-less pages are only counted (`pagesNeedingOcr`). */
  ocr?: PdfOcrOptions;
  signal?: AbortSignal;
}

export interface PdfTextResult {
  /** Text per page, in page order. */
  pages: string[];
  /** Pages whose text came from OCR. */
  ocrPages: number;
  /** Text-less pages with images or drawn glyphs that were not OCR'd (no engine given). */
  pagesNeedingOcr: number;
  /** Pages pdf.js could not read at all. */
  failedPages: number;
}

// Operators that put pixels or glyph outlines on a page: a text-less page without any of these is blank.
const PAINT_OPS = [
  'paintImageXObject', 'paintInlineImageXObject', 'paintImageMaskXObject', 'paintImageXObjectRepeat',
  'paintImageMaskXObjectRepeat', 'paintImageMaskXObjectGroup', 'paintInlineImageXObjectGroup',
  'paintSolidColorImageMask', 'showText', 'showSpacedText', 'nextLineShowText', 'nextLineSetSpacingShowText',
];
/** Vector-outlined text shows up as many filled paths. */
const MANY_PATHS = 200;

async function hasVisibleContent(page: PDFPageProxy, timeoutMs: number): Promise<boolean> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const ops = pdfjs.OPS as Record<string, number>;
  const paint = new Set(PAINT_OPS.map((n) => ops[n]).filter((n) => n !== undefined));
  const list = await withTimeout(page.getOperatorList(), timeoutMs, `reading page ${page.pageNumber}`);
  let paths = 0;
  for (const fn of list.fnArray) {
    if (paint.has(fn)) return true;
    if (fn === ops.constructPath && ++paths >= MANY_PATHS) return true;
  }
  return false;
}

async function pageText(page: PDFPageProxy, o: PdfTextOptions): Promise<string> {
  const content = await withTimeout(page.getTextContent(), o.pageTimeoutMs ?? 30_000, `reading page ${page.pageNumber}`);
  const items = content.items.filter((i): i is typeof i & RawTextItem => 'str' in i);
  return reconstructLines(items, page.getViewport({ scale: 1 }).transform, o.lines);
}

const nonSpace = (s: string): number => s.replace(/\s+/g, '').length;

/**
 * Reads a PDF's text layer page by page, rebuilding lines from text positions, and OCRs pages
 * that have (almost) no text but do show images or glyphs. Throws ParseError: ENCRYPTED,
 * CORRUPT, TOO_MANY_PAGES (checked before any page work), OCR_FAILED (an OCR call failed).
 * A page pdf.js cannot read is counted in `failedPages` and left empty, so one broken page
 * does not lose the rest of the document.
 */
export async function extractPdfText(bytes: Buffer, o: PdfTextOptions): Promise<PdfTextResult> {
  const doc = await openPdf(bytes);
  const result: PdfTextResult = { pages: [], ocrPages: 0, pagesNeedingOcr: 0, failedPages: 0 };
  const inFlight = new Set<Promise<void>>();
  let ocrError: unknown;
  try {
    if (doc.numPages > o.maxPages) {
      throw new ParseError('TOO_MANY_PAGES', `PDF has ${doc.numPages} pages; the limit is ${o.maxPages}`);
    }
    const minChars = o.minTextChars ?? 16;
    for (let n = 1; n <= doc.numPages; n++) {
      o.signal?.throwIfAborted();
      if (ocrError) break;
      let page: PDFPageProxy | undefined;
      try {
        page = await doc.getPage(n);
        const text = await pageText(page, o);
        result.pages[n - 1] = text;
        if (nonSpace(text) >= minChars || !(await hasVisibleContent(page, o.pageTimeoutMs ?? 30_000))) continue;
        if (!o.ocr) {
          result.pagesNeedingOcr++;
          continue;
        }
        const png = await renderPageToPng(doc, page, o.ocr);
        const ocr = o.ocr;
        const job = withTimeout(ocr.engine.recognize(png), ocr.pageTimeoutMs ?? 60_000, `OCR of page ${n}`)
          .then(({ text: ocrText }) => {
            const clean = ocrText.trim();
            if (nonSpace(clean) > nonSpace(text)) {
              result.pages[n - 1] = clean;
              result.ocrPages++;
            }
          })
          .catch((err: unknown) => {
            ocrError ??= err;
          })
          .finally(() => inFlight.delete(job));
        inFlight.add(job);
        while (inFlight.size >= Math.max(1, ocr.concurrency ?? 2)) await Promise.race(inFlight);
      } catch (err) {
        if (err instanceof ParseError) throw err;
        result.pages[n - 1] ??= '';
        result.failedPages++;
      } finally {
        page?.cleanup();
      }
    }
    await Promise.all(inFlight);
    if (ocrError) throw ocrFailure(ocrError);
    for (let i = 0; i < doc.numPages; i++) result.pages[i] ??= '';
    return result;
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

function ocrFailure(err: unknown): ParseError {
  if (err instanceof ParseError) return err;
  const e = err as { kind?: string; message?: string };
  if (e?.kind === 'bad_image') return new ParseError('CORRUPT', e.message ?? 'page image could not be decoded', { cause: err });
  return new ParseError('OCR_FAILED', `OCR failed: ${e?.message ?? String(err)}`, { cause: err });
}
