import { ParseError } from './errors.js';
import type { Ocr, OcrWord } from './ocr.js';
import type { PdfEngine } from './pdf-engine.js';
import { layoutWords, type LayoutPage } from './pdf-layout.js';
import { reconstructLines, type LineOptions } from './pdf-lines.js';
import { imageSize } from './image-size.js';
import { withTimeout } from './timeout.js';

/** OCR settings for text-less pages. */
export interface PdfOcrOptions {
  engine: Ocr;
  /** Rendering resolution; tesseract does best with 150–300 dpi text. Default 200. */
  dpi?: number;
  /** Upper bound on pixels per rendered page, so a poster-sized page cannot exhaust memory. Default 25,000,000. */
  maxPixels?: number;
  /** OCR time limit per page. Default 60,000 ms. */
  pageTimeoutMs?: number;
  /** Pages being recognised while the reader renders the next one. Default 2. */
  concurrency?: number;
}

/** Options for {@link extractPdfText}. */
export interface PdfTextOptions {
  /** Documents with more pages fail with TOO_MANY_PAGES before any page is read. */
  maxPages: number;
  /** A page with fewer non-space characters counts as text-less (an OCR candidate). Default 16. */
  minTextChars?: number;
  lines?: LineOptions;
  /** Without it, text-less pages are only counted (`pagesNeedingOcr`). */
  ocr?: PdfOcrOptions;
  signal?: AbortSignal;
}

export interface PdfTextResult {
  /** Text per page, in page order. */
  pages: string[];
  /** Positioned words per page (null for a page read by OCR or not read), for the layout text. */
  layout: Array<LayoutPage | null>;
  /** Pages whose text came from OCR. */
  ocrPages: number;
  /** OCR word boxes per page (pixels at the rendering resolution), null for pages not OCR'd. */
  ocrWords: Array<OcrWord[] | null>;
  /** Pixel size [width, height] of each OCR'd page's image (what the word boxes are relative to), null elsewhere. */
  ocrSizes: Array<[number, number] | null>;
  /** Text-less pages with images or drawn glyphs that were not OCR'd (no OCR engine given). */
  pagesNeedingOcr: number;
  /** Pages pdf.js could not read at all. */
  failedPages: number;
}

const nonSpace = (s: string): number => s.replace(/\s+/g, '').length;

function ocrFailure(err: unknown): ParseError {
  if (err instanceof ParseError) return err;
  const e = err as { kind?: string; message?: string };
  if (e?.kind === 'bad_image')
    return new ParseError('CORRUPT', e.message ?? 'page image could not be decoded', { cause: err });
  return new ParseError('OCR_FAILED', `OCR failed: ${e?.message ?? String(err)}`, { cause: err });
}

/**
 * Reads a PDF's text layer page by page, rebuilding lines from text positions, and OCRs pages
 * that have (almost) no text but do show images or glyphs. Throws ParseError: ENCRYPTED,
 * CORRUPT, TOO_MANY_PAGES (checked before any page work), OCR_FAILED. A page pdf.js cannot
 * read is counted in `failedPages` and left empty, so one broken page does not lose the rest.
 */
export async function extractPdfText(bytes: Buffer, reader: PdfEngine, o: PdfTextOptions): Promise<PdfTextResult> {
  const result: PdfTextResult = {
    pages: [],
    layout: [],
    ocrPages: 0,
    ocrWords: [],
    ocrSizes: [],
    pagesNeedingOcr: 0,
    failedPages: 0,
  };
  const ocr = o.ocr;
  const inFlight = new Set<Promise<void>>();
  let ocrError: unknown;

  const { numPages } = await reader.read(
    bytes,
    {
      maxPages: o.maxPages,
      minTextChars: o.minTextChars ?? 16,
      render: ocr ? { dpi: ocr.dpi ?? 200, maxPixels: ocr.maxPixels ?? 25_000_000 } : undefined,
      signal: o.signal,
    },
    async (page) => {
      const index = page.pageNumber - 1;
      if (page.error !== null || !page.viewport) {
        result.failedPages++;
        result.pages[index] = '';
        return;
      }
      const text = reconstructLines(page.items, page.viewport, o.lines);
      result.pages[index] = text;
      result.layout[index] = layoutWords(page.items, page.viewport);
      if (!page.visible) return;
      if (!ocr || !page.png) {
        result.pagesNeedingOcr++;
        return;
      }
      if (ocrError) return;
      const png = page.png;
      const job = withTimeout(
        ocr.engine.recognize(page.png),
        ocr.pageTimeoutMs ?? 60_000,
        `OCR of page ${page.pageNumber}`,
      )
        .then(({ text: ocrText, words }) => {
          const clean = ocrText.trim();
          // A scan may carry a few characters of real text (a page number): keep the richer one.
          if (nonSpace(clean) > nonSpace(text)) {
            result.pages[index] = clean;
            result.layout[index] = null;
            result.ocrWords[index] = words ?? null;
            const size = imageSize('image/png', png);
            result.ocrSizes[index] = size ? [size.width, size.height] : null;
            result.ocrPages++;
          }
        })
        .catch((err: unknown) => {
          ocrError ??= err;
        })
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
      while (inFlight.size >= Math.max(1, ocr.concurrency ?? 2)) await Promise.race(inFlight);
    },
  );
  await Promise.all(inFlight);
  if (ocrError) throw ocrFailure(ocrError);
  for (let i = 0; i < numPages; i++) {
    result.pages[i] ??= '';
    result.layout[i] ??= null;
    result.ocrWords[i] ??= null;
    result.ocrSizes[i] ??= null;
  }
  return result;
}
