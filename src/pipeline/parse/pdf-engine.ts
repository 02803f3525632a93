import { Worker } from 'node:worker_threads';
import { ParseError } from './errors.js';
import { pdfjsAssets } from './pdfjs.js';
import { PDF_WORKER_SOURCE } from './pdf-worker-source.js';
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
 * Reads PDFs with pdf.js. `onPage` is awaited before the next page is read, so a slow consumer
 * (OCR) holds the reader back instead of piling up rendered pages.
 */
export interface PdfEngine {
  read(bytes: Buffer, options: PdfReadOptions, onPage: (page: PdfPageData) => Promise<void>): Promise<{ numPages: number }>;
  close(): Promise<void>;
}

/** Options for {@link createPdfEngine}. */
export interface PdfEngineOptions {
  /** Worker threads, i.e. documents read at the same time. Default 1. */
  workers?: number;
  /**
   * V8 heap limit per worker. A hostile PDF (e.g. a pattern that paints itself) makes pdf.js
   * allocate without end; the worker dies at this limit instead of the process. Default 1024 MB.
   */
  maxHeapMb?: number;
  /**
   * Longest the reader may work without delivering the next page (or opening the document);
   * then the worker is killed and the document fails as CORRUPT. Default 60,000 ms.
   */
  pageTimeoutMs?: number;
  /** Limit for starting a worker and loading pdf.js (not counted against pages). Default 60,000 ms. */
  startTimeoutMs?: number;
  /** Largest embedded image pdf.js decodes, in pixels (decompression bombs stop here). Default 100,000,000. */
  maxImagePixels?: number;
}

interface Slot {
  /** Resolves once the worker has loaded pdf.js. */
  worker?: Promise<Worker>;
  busy: boolean;
}

type WorkerMessage =
  | ({ type: 'page'; id: number; ack: boolean } & Omit<PdfPageData, 'png'> & { png: Uint8Array | null })
  | { type: 'done'; id: number; numPages: number }
  | { type: 'error'; id: number; name: string; message: string; numPages?: number };

function workerFailure(err: unknown, maxHeapMb: number): ParseError {
  const e = err as { code?: string; message?: string };
  if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new ParseError('CORRUPT', `PDF needs more than ${maxHeapMb} MB of memory to read (likely malformed)`, { cause: err });
  }
  return new ParseError('CORRUPT', `PDF reader crashed: ${e?.message ?? String(err)}`, { cause: err });
}

function readError(m: Extract<WorkerMessage, { type: 'error' }>, maxPages: number): ParseError {
  if (m.name === 'TooManyPages') {
    return new ParseError('TOO_MANY_PAGES', `PDF has ${m.numPages} pages; the limit is ${maxPages}`);
  }
  if (m.name === 'PasswordException') return new ParseError('ENCRYPTED', 'PDF is password-protected');
  return new ParseError('CORRUPT', `PDF could not be opened: ${m.message}`);
}

/**
 * Runs pdf.js in worker threads with a heap limit and a per-page watchdog, so a hostile PDF
 * costs one worker (replaced on next use), never the process, and never blocks its event loop.
 * Workers start on first use and are reused across documents; `close()` stops them.
 */
export function createPdfEngine(options: PdfEngineOptions = {}): PdfEngine {
  const size = Math.max(1, Math.floor(options.workers ?? 1));
  const maxHeapMb = options.maxHeapMb ?? 1024;
  const pageTimeoutMs = options.pageTimeoutMs ?? 60_000;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const workerData = { ...pdfjsAssets(), maxImagePixels: options.maxImagePixels ?? 100_000_000 };
  const slots: Slot[] = Array.from({ length: size }, () => ({ busy: false }));
  const waiting: Array<(slot: Slot | null) => void> = [];
  let closed = false;
  let started = false;
  let nextId = 1;

  function acquire(): Promise<Slot | null> {
    if (closed) return Promise.resolve(null);
    const free = slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(slot: Slot): void {
    const next = waiting.shift();
    if (next && !closed) next(slot);
    else slot.busy = false;
  }

  function kill(slot: Slot): void {
    const worker = slot.worker;
    slot.worker = undefined;
    void worker?.then((w) => w.terminate()).catch(() => undefined);
  }

  function spawn(slot: Slot): Promise<Worker> {
    const worker = new Worker(PDF_WORKER_SOURCE, {
      eval: true,
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
      stdout: false,
      stderr: false,
    });
    // An idle reader must not keep the process alive.
    worker.unref();
    const ready = new Promise<Worker>((resolve, reject) => {
      const done = (err?: unknown): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', done);
        worker.off('exit', onExit);
        if (err === undefined) resolve(worker);
        else reject(err);
      };
      const onMessage = (m: { type?: string; message?: string }): void => {
        if (m.type === 'ready') done();
        else if (m.type === 'failed') done(new Error(`pdf.js could not be loaded: ${m.message}`));
      };
      const onExit = (code: number): void => done(new Error(`PDF reader exited with code ${code} while starting`));
      const timer = setTimeout(() => done(new Error(`PDF reader did not start within ${startTimeoutMs} ms`)), startTimeoutMs);
      worker.on('message', onMessage);
      worker.on('error', done);
      worker.on('exit', onExit);
    });
    // Start-up failures are the machine's problem, not the document's: plain (retryable) errors.
    ready.catch(() => void worker.terminate().catch(() => undefined));
    // A worker that dies while idle must not surface as an unhandled 'error' event (which would
    // crash the process); a read in progress has its own listeners and reports it.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (slot.worker === ready) slot.worker = undefined;
    });
    return ready;
  }

  function runOnWorker(
    slot: Slot,
    worker: Worker,
    bytes: Buffer,
    o: PdfReadOptions,
    onPage: (p: PdfPageData) => Promise<void>,
  ): Promise<{ numPages: number }> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => fail(new ParseError('CORRUPT', `PDF page took longer than ${pageTimeoutMs} ms to read`)), pageTimeoutMs);
      };
      const cleanup = (): void => {
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        o.signal?.removeEventListener('abort', onAbort);
      };
      const fail = (err: unknown): void => {
        if (settled) return;
        cleanup();
        kill(slot);
        reject(err);
      };
      const onError = (err: unknown): void => fail(workerFailure(err, maxHeapMb));
      // After close() the exit is a shutdown, not a verdict on the document: stay retryable.
      const onExit = (code: number): void =>
        fail(closed ? new Error('PDF engine closed') : new ParseError('CORRUPT', `PDF reader exited with code ${code}`));
      const onAbort = (): void => fail(o.signal?.reason ?? new Error('aborted'));
      // Pages are handled one after another, in order, even when several arrive unacknowledged;
      // 'done' settles only once the last of them has been handled.
      let handled: Promise<void> = Promise.resolve();
      const onMessage = (m: WorkerMessage): void => {
        if (settled || m.id !== id) return;
        clearTimeout(timer);
        if (m.type === 'done') {
          void handled.then(() => {
            if (settled) return;
            cleanup();
            resolve({ numPages: m.numPages });
          });
        } else if (m.type === 'error') {
          cleanup();
          reject(readError(m, o.maxPages));
        } else {
          const { type: _type, id: _id, png, ack, ...page } = m;
          // The worker is still reading unless it waits for this page's ack.
          if (!ack) arm();
          const data = { ...page, png: png ? Buffer.from(png.buffer, png.byteOffset, png.byteLength) : null };
          handled = handled.then(() => (settled ? undefined : onPage(data))).then(
            () => {
              if (settled || !ack) return;
              arm();
              worker.postMessage({ type: 'ack', id });
            },
            fail,
          );
        }
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      o.signal?.addEventListener('abort', onAbort, { once: true });
      if (o.signal?.aborted) return onAbort();
      // A copy, transferred: the caller's Buffer may share memory with other Buffers.
      const data = new Uint8Array(bytes);
      arm();
      worker.postMessage(
        { type: 'read', id, data, maxPages: o.maxPages, minTextChars: o.minTextChars, render: o.render ?? null },
        [data.buffer],
      );
    });
  }

  async function read(bytes: Buffer, o: PdfReadOptions, onPage: (p: PdfPageData) => Promise<void>): Promise<{ numPages: number }> {
    const slot = await acquire();
    if (!slot) throw new Error('PDF engine is closed');
    try {
      o.signal?.throwIfAborted();
      // The first read starts every reader: memory is taken once, up front, and the second
      // reader's pdf.js start-up (a few hundred ms, ~35 MB) does not land in the middle of the
      // first burst of documents.
      if (!started) {
        started = true;
        for (const s of slots) {
          if (s === slot || s.worker) continue;
          try {
            s.worker = spawn(s);
          } catch { /* that slot starts its reader when it is first used */ }
        }
      }
      slot.worker ??= spawn(slot);
      let worker: Worker;
      try {
        worker = await slot.worker;
      } catch (err) {
        slot.worker = undefined;
        throw err;
      }
      return await runOnWorker(slot, worker, bytes, o, onPage);
    } finally {
      release(slot);
    }
  }

  async function close(): Promise<void> {
    closed = true;
    for (const resolve of waiting.splice(0)) resolve(null);
    await Promise.all(
      slots.map(async (slot) => {
        const worker = slot.worker;
        slot.worker = undefined;
        await worker?.then((w) => w.terminate()).catch(() => undefined);
      }),
    );
  }

  return { read, close };
}
