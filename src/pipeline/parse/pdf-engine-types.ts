import type { RawTextItem } from './pdf-lines.js';

/** What the reader learned about one page. */
export interface PdfPageData {
  pageNumber: number;
  numPages: number;
  items: RawTextItem[];
  /** `page.getViewport({ scale: 1 }).transform`; null when the page could not be read. */
  viewport: number[] | null;
  /** Non-space characters in the text layer. */
  textChars: number;
  /** For pages under `minTextChars`: whether anything is painted (images, glyphs, many paths). */
  visible: boolean | null;
  /** The page rendered as PNG, for text-less visible pages when rendering was requested. */
  png: Buffer | null;
  /** Why pdf.js could not read this page (the rest of the document is still read). */
  error: string | null;
}

/** Per-document options for {@link PdfEngine.read}. */
export interface PdfReadOptions {
  maxPages: number;
  /** Pages with fewer non-space characters are checked for painted content and rendered. */
  minTextChars: number;
  /** Render text-less visible pages to PNG (for OCR). Omit to skip rendering. */
  render?: { dpi: number; maxPixels: number };
  signal?: AbortSignal;
}

/**
 * The isolated parser. `read` streams a PDF's pages: `onPage` is awaited before the next page
 * is read, so a slow consumer (OCR) holds the reader back instead of piling up rendered pages.
 * `convert` turns any other convertible type (see `CONVERTIBLE` in convert.ts) into text.
 */
export interface PdfEngine {
  read(
    bytes: Buffer,
    options: PdfReadOptions,
    onPage: (page: PdfPageData) => Promise<void>,
  ): Promise<{ numPages: number }>;
  convert(mime: string, bytes: Buffer, options?: { signal?: AbortSignal }): Promise<string>;
  close(): Promise<void>;
}

/** Options for {@link createPdfEngine}. */
export interface PdfEngineOptions {
  /** Parser processes, i.e. documents read at the same time. Default 1. */
  workers?: number;
  /**
   * Memory one parser process may use, ArrayBuffers and wasm included: a hard limit where the
   * platform has RLIMIT_DATA (Linux), and a resident-memory watch (every 50 ms, from /proc)
   * that kills the process past it. The document then fails as TOO_LARGE and the next one gets
   * a fresh process, so the memory is given back. Default 1024 MB.
   */
  maxMemoryMb?: number;
  /** V8 heap limit per parser process. Default: three quarters of `maxMemoryMb`, at most 1024 MB. */
  maxHeapMb?: number;
  /**
   * A process left using more than this after a document is restarted before the next one
   * (V8 and malloc keep memory they no longer need). Default half of `maxMemoryMb`, at most 200 MB.
   */
  recycleAboveMb?: number;
  /** Documents one process handles before it is replaced by a fresh one. Default 500. */
  recycleAfterJobs?: number;
  /**
   * A process other than the first that has been unused this long is stopped (its memory given
   * back); the first stays, so a quiet install pays one process. Default 30,000 ms.
   */
  idleTimeoutMs?: number;
  /**
   * Beyond the first process, another starts only for a waiting document once every busy process
   * has been on its current document this long (start-up does not count). Short documents (most
   * take a few milliseconds) then share one process, and the ~100 MB of a second one is spent only
   * when a long document holds the first. 0 starts the next process at once. Default 1,000 ms.
   */
  spawnDelayMs?: number;
  /**
   * Longest the reader may work without delivering the next page (or opening the document), and
   * longest one conversion may take; then the process is killed and the document fails as
   * CORRUPT. Default 60,000 ms.
   */
  pageTimeoutMs?: number;
  /** Limit for starting a process and loading pdf.js (not counted against pages). Default 60,000 ms. */
  startTimeoutMs?: number;
  /** Largest embedded image pdf.js decodes, in pixels (decompression bombs stop here). Default 100,000,000. */
  maxImagePixels?: number;
  /** Bytes a DOCX's parts may inflate to, counted while inflating. Default 64 MiB. */
  maxInflatedBytes?: number;
}
