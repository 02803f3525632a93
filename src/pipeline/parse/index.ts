import { checkTextLength, CONVERTIBLE, convertToText } from './convert.js';
import { ParseError } from './errors.js';
import { imageSize } from './image-size.js';
import { needsNormalizing, normalizeImage } from './image-normalize.js';
import { guessLanguage } from './language.js';
import { OcrError, type Ocr, type OcrWord } from './ocr.js';
import { extractPdfText } from './pdf.js';
import { createPdfEngine, type PdfEngine } from './pdf-engine.js';
import type { LayoutPage } from './pdf-layout.js';
import type { LineOptions } from './pdf-lines.js';
import { MIME, sniffType } from './sniff.js';
import { normalizeText } from './text.js';
import { withTimeout } from './timeout.js';

export { ParseError, type ParseErrorCode } from './errors.js';
export {
  createTesseractOcr,
  OcrError,
  type Ocr,
  type OcrResult,
  type OcrWord,
  type TesseractOcrOptions,
} from './ocr.js';
export { positionIndex, type PositionIndex, type FieldPosition } from './positions.js';
export { pageWords, type PageWords } from './page-words.js';
export { needsNormalizing, normalizeImage, type NormalizedImage } from './image-normalize.js';
export { matchesAllowedTypes, sniffType, type SniffedType } from './sniff.js';
export { ACCEPTED_TYPES_TEXT, unprocessableKind } from './refused-types.js';
export { guessLanguage } from './language.js';
export { createPdfEngine, type PdfEngine, type PdfEngineOptions } from './pdf-engine.js';
export {
  renderLayout,
  cropWords,
  packLayout,
  layoutText,
  layoutAreaText,
  type LayoutPage,
  type LayoutWord,
  type StoredLayout,
} from './pdf-layout.js';

export interface ParseInput {
  bytes: Buffer;
  /** Only breaks ties among text types (csv vs txt); the bytes decide the type. */
  filename?: string;
  /** PDFs with more pages fail with TOO_MANY_PAGES before any page is read. */
  maxPages: number;
}

export interface ParseDeps {
  /** Needed for images and scanned PDF pages; without it those fail with OCR_FAILED (permanent). */
  ocr?: Ocr;
  /**
   * The isolated parser processes, long-lived and shared (see {@link createPdfEngine}): PDFs and
   * every other non-image type are read there, under its memory limit (small plain text, CSV and
   * JSON excepted: {@link INLINE_MAX_BYTES}). Without it each PDF
   * starts and stops its own process (a few hundred milliseconds) and the other types are
   * converted in the calling process, unbounded: fine for tests and tools, not for a server.
   */
  pdf?: PdfEngine;
}

/** Tuning for {@link parseDocument}; every field has a default. */
export interface ParseOptions {
  /** Rendering resolution for OCR of PDF pages. Default 200 dpi. */
  ocrDpi?: number;
  /**
   * Images declaring more pixels fail as TOO_LARGE before OCR: the decoder allocates what the
   * header declares (a 128-byte PNG can declare 50000×50000). Default 50,000,000 (an A4 page
   * scanned at 600 dpi is 35 million).
   */
  maxImagePixels?: number;
  /** Limit per OCR call (one image or one PDF page). Default 60,000 ms. */
  ocrPageTimeoutMs?: number;
  /** PDF pages rendered ahead while earlier pages are being recognised. Default 2. */
  ocrConcurrency?: number;
  /** A PDF page with fewer non-space characters is treated as scanned. Default 16. */
  minPageChars?: number;
  /** Line reconstruction thresholds for PDFs. */
  lines?: LineOptions;
  /** Aborting stops PDF reading at once (its worker is replaced) and rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface ParseResult {
  /** The type sniffed from the bytes. */
  mimeType: string;
  /** Normalised text; PDF pages are separated by a form feed on a line of its own (`\n\f\n`). */
  text: string;
  /** PDF page count; 1 for every other type. */
  pages: number;
  /** Pages (or images) whose text came from OCR. */
  ocrPages: number;
  /** 'en' | 'de' | 'fr' | 'es' | 'nl' when the text clearly reads as one of them. */
  language?: string;
  /** PDFs: positioned words per page (null for pages read by OCR), for the layout text templates read. */
  layout?: Array<LayoutPage | null>;
  /** OCR word boxes per page (images: one page), null for pages not OCR'd; for field positions. */
  ocrWords?: Array<OcrWord[] | null>;
  /** Pixel size [width, height] of the image each OCR'd page's word boxes are measured in. */
  ocrSizes?: Array<[number, number] | null>;
}

/** Separator between PDF pages in `ParseResult.text`; split on `\f` to get pages back. */
export const PAGE_SEPARATOR = '\n\f\n';

interface Extracted {
  text: string;
  pages: number;
  ocrPages: number;
  layout?: Array<LayoutPage | null>;
  ocrWords?: Array<OcrWord[] | null>;
  ocrSizes?: Array<[number, number] | null>;
}

function ocrUnavailable(what: string): ParseError {
  return new ParseError('OCR_FAILED', `${what} needs OCR, which is not enabled on this server`, { permanent: true });
}

export const DEFAULT_MAX_IMAGE_PIXELS = 50_000_000;

async function ocrImage(mime: string, bytes: Buffer, ocr: Ocr | undefined, o: ParseOptions): Promise<Extracted> {
  const size = imageSize(mime, bytes);
  if (!size || size.width === 0 || size.height === 0)
    throw new ParseError('CORRUPT', 'the image header could not be read');
  const maxPixels = o.maxImagePixels ?? DEFAULT_MAX_IMAGE_PIXELS;
  if (size.width * size.height > maxPixels) {
    throw new ParseError('TOO_LARGE', `the image is ${size.width}×${size.height} pixels; the limit is ${maxPixels}`);
  }
  if (!ocr) throw ocrUnavailable('an image');
  // TIFFs and turned JPEGs are read as the upright PNG `GET /documents/{id}/preview` serves, so
  // OCR reads upright text and its word boxes fall on the picture people see.
  let image = bytes;
  let read: [number, number] = [size.width, size.height];
  if (needsNormalizing(mime, bytes)) {
    const n = await normalizeImage(bytes, { maxPixels });
    image = n.png;
    read = [n.width, n.height];
  }
  try {
    const { text, words } = await withTimeout(ocr.recognize(image), o.ocrPageTimeoutMs ?? 60_000, 'OCR');
    return {
      text: normalizeText(text),
      pages: 1,
      ocrPages: 1,
      ocrWords: [words ?? null],
      ocrSizes: [read],
    };
  } catch (err) {
    if (err instanceof OcrError && err.kind === 'bad_image') {
      throw new ParseError('CORRUPT', err.message, { cause: err });
    }
    throw new ParseError('OCR_FAILED', `OCR failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
  }
}

async function parsePdf(input: ParseInput, deps: ParseDeps, o: ParseOptions): Promise<Extracted> {
  const reader = deps.pdf ?? createPdfEngine();
  try {
    const r = await extractPdfText(input.bytes, reader, {
      maxPages: input.maxPages,
      minTextChars: o.minPageChars,
      lines: o.lines,
      signal: o.signal,
      ocr: deps.ocr
        ? { engine: deps.ocr, dpi: o.ocrDpi, pageTimeoutMs: o.ocrPageTimeoutMs, concurrency: o.ocrConcurrency }
        : undefined,
    });
    // Checked before normalising: a PDF's pages arrive one by one, so here is the first place
    // their total is known.
    const text = normalizeText(checkTextLength(r.pages.map((p) => p.trim()).join(PAGE_SEPARATOR)));
    if (!/\S/.test(text)) {
      if (r.pagesNeedingOcr > 0) throw ocrUnavailable('this PDF has no text layer and');
      if (r.failedPages > 0) throw new ParseError('CORRUPT', `none of the PDF's ${r.pages.length} pages could be read`);
    }
    return {
      text,
      pages: r.pages.length,
      ocrPages: r.ocrPages,
      layout: r.layout,
      ocrWords: r.ocrWords,
      ocrSizes: r.ocrSizes,
    };
  } finally {
    if (!deps.pdf) await reader.close();
  }
}

/**
 * Plain text, CSV and JSON up to this size are read in the calling process instead of the parser
 * process: their converters take linear time and a few times the file's size in memory, so the
 * round trip to the other process (and a process to keep for it) would cost more than the work.
 * HTML, e-mail and DOCX (a parser, MIME trees, inflating) and anything larger go to the parser
 * process as before.
 */
export const INLINE_MAX_BYTES = 64 * 1024;
const INLINE_TYPES: ReadonlySet<string> = new Set([MIME.txt, MIME.csv, MIME.json]);
const readInline = (mime: string, bytes: Buffer): boolean => INLINE_TYPES.has(mime) && bytes.length <= INLINE_MAX_BYTES;

async function extract(mime: string, input: ParseInput, deps: ParseDeps, o: ParseOptions): Promise<Extracted> {
  const one = (text: string): Extracted => ({ text, pages: 1, ocrPages: 0 });
  if (mime === MIME.pdf) return parsePdf(input, deps, o);
  if (mime.startsWith('image/')) return ocrImage(mime, input.bytes, deps.ocr, o);
  if (CONVERTIBLE.has(mime)) {
    return one(
      deps.pdf && !readInline(mime, input.bytes)
        ? await deps.pdf.convert(mime, input.bytes, { signal: o.signal })
        : await convertToText(mime, input.bytes),
    );
  }
  throw new ParseError('UNSUPPORTED_TYPE', `files of type ${mime} are not supported`);
}

/**
 * Turns a stored file into text. The type is sniffed from the bytes; PDFs use their text layer
 * (lines rebuilt from positions) with OCR for scanned pages, images go to OCR, and text, CSV,
 * HTML, JSON, DOCX and e-mail files are converted directly.
 * Every input failure is a {@link ParseError}; `permanent` says whether a retry can help.
 */
export async function parseDocument(
  input: ParseInput,
  deps: ParseDeps = {},
  options: ParseOptions = {},
): Promise<ParseResult> {
  const sniffed = sniffType(input.bytes, input.filename);
  if (!sniffed) {
    throw new ParseError(
      input.bytes.length === 0 ? 'EMPTY' : 'UNSUPPORTED_TYPE',
      input.bytes.length === 0 ? 'the file is empty' : 'unrecognised or binary file type',
    );
  }
  const { text, pages, ocrPages, layout, ocrWords, ocrSizes } = await extract(sniffed.mime, input, deps, options);
  checkTextLength(text);
  // A test, not a whitespace-free copy: that copy of a 25-million-character text took 400 MB.
  if (!/\S/.test(text)) {
    throw new ParseError('EMPTY', ocrPages > 0 ? 'OCR found no text' : 'the document contains no text');
  }
  return {
    mimeType: sniffed.mime,
    text,
    pages,
    ocrPages,
    language: guessLanguage(text),
    ...(layout ? { layout } : {}),
    ...(ocrWords && ocrWords.some((w) => w !== null && w.length > 0) ? { ocrWords, ocrSizes } : {}),
  };
}
