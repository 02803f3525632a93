import { createRequire } from 'node:module';
import path from 'node:path';
import type Tesseract from 'tesseract.js';
import { TimeoutError, withTimeout } from './timeout.js';

/** A recognised word and its box in the image's pixels (from the top left). */
export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Set on the first word of each recognised line. */
  nl?: 1;
}

/** Text recognised in one image. */
export interface OcrResult {
  text: string;
  /** Mean word confidence in [0, 1]. */
  confidence: number;
  /** The words in reading order with their boxes (absent when the engine gives none). */
  words?: OcrWord[];
}

/** The words of tesseract's block tree, in reading order, each line's first word marked. */
export function ocrWordsOf(blocks: Tesseract.Block[] | null | undefined): OcrWord[] {
  const out: OcrWord[] = [];
  for (const b of blocks ?? [])
    for (const p of b.paragraphs ?? [])
      for (const l of p.lines ?? []) {
        let first = true;
        for (const w of l.words ?? []) {
          const text = (w.text ?? '').trim();
          if (!text || !w.bbox) continue;
          const { x0, y0, x1, y1 } = w.bbox;
          out.push(first ? { text, x0, y0, x1, y1, nl: 1 } : { text, x0, y0, x1, y1 });
          first = false;
        }
      }
  return out;
}

/** An OCR engine. `recognize` takes an encoded image (PNG, JPEG, TIFF, BMP, GIF, WebP). */
export interface Ocr {
  recognize(image: Buffer): Promise<OcrResult>;
  /** Stops the engine's workers; later `recognize` calls reject. */
  close(): Promise<void>;
  /** Workers started and not stopped (idle ones stop after `idleTimeoutMs`). */
  running?(): number;
}

/**
 * Why OCR failed: `bad_image` (the engine cannot decode the image: the file is corrupt),
 * `timeout`, `closed`, or `failed` (the engine crashed or could not start).
 */
export type OcrErrorKind = 'bad_image' | 'timeout' | 'closed' | 'failed';

export class OcrError extends Error {
  override readonly name = 'OcrError';
  constructor(
    readonly kind: OcrErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Options for {@link createTesseractOcr}. */
export interface TesseractOcrOptions {
  /** Worker threads (each holds its own copy of the model, ~100 MB). Default 1. */
  workers?: number;
  /** Per-image limit; on expiry the worker is killed and replaced. Default 60,000 ms. */
  timeoutMs?: number;
  /** Folder with `<lang>.traineddata.gz`. Default: the `@tesseract.js-data/eng` package's `4.0.0_best_int`. */
  langPath?: string;
  /** Tesseract language code(s). Default `eng`. */
  lang?: string;
  /**
   * A worker unused this long is terminated and its ~100 MB given back; the next image starts
   * one again (about a second). Default 60,000 ms; 0 keeps workers for the engine's life.
   */
  idleTimeoutMs?: number;
}

function defaultLangPath(): string {
  const pkg = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return path.join(path.dirname(pkg), '4.0.0_best_int');
}

interface Slot {
  worker?: Promise<Tesseract.Worker>;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
}

/**
 * OCR with tesseract.js, fully offline: the model comes from a local folder (never a CDN) and
 * is not cached elsewhere. Workers run in worker threads, start lazily on first use and are
 * shared by concurrent callers; a worker that times out or crashes is terminated and replaced.
 */
export function createTesseractOcr(options: TesseractOcrOptions = {}): Ocr {
  const size = Math.max(1, Math.floor(options.workers ?? 1));
  const timeoutMs = options.timeoutMs ?? 60_000;
  const langPath = options.langPath ?? defaultLangPath();
  const lang = options.lang ?? 'eng';
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const slots: Slot[] = Array.from({ length: size }, () => ({ busy: false }));
  const waiting: Array<(slot: Slot | null) => void> = [];
  let closed = false;

  async function startWorker(): Promise<Tesseract.Worker> {
    const { createWorker } = (await import('tesseract.js')).default;
    // LSTM-only engine (1): the `best_int` data has no legacy model.
    return createWorker(lang, 1, {
      langPath,
      gzip: true,
      cacheMethod: 'none',
      // Without a handler tesseract.js rethrows worker errors asynchronously, which would crash the process.
      errorHandler: () => undefined,
    });
  }

  function acquire(): Promise<Slot | null> {
    if (closed) return Promise.resolve(null);
    const free = slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      clearTimeout(free.idleTimer);
      return Promise.resolve(free);
    }
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(slot: Slot): void {
    const next = waiting.shift();
    if (next && !closed) return next(slot);
    slot.busy = false;
    // An OCR worker holds its own copy of the model: a quiet process gives it back.
    if (idleTimeoutMs > 0 && slot.worker && !closed) {
      clearTimeout(slot.idleTimer);
      slot.idleTimer = setTimeout(() => {
        if (!slot.busy) discard(slot);
      }, idleTimeoutMs);
      slot.idleTimer.unref();
    }
  }

  function discard(slot: Slot): void {
    const worker = slot.worker;
    slot.worker = undefined;
    void terminateLater(worker);
  }

  async function recognize(image: Buffer): Promise<OcrResult> {
    const slot = await acquire();
    if (!slot) throw new OcrError('closed', 'OCR engine is closed');
    let timedOut = false;
    try {
      slot.worker ??= startWorker();
      const run = slot.worker.then((w) => {
        // The worker finished starting after the deadline: it is about to be terminated.
        if (timedOut) throw new OcrError('timeout', 'OCR timed out');
        // The block tree carries each word's box (for field positions).
        return w.recognize(image, {}, { text: true, blocks: true });
      });
      const { data } = await withTimeout(run, timeoutMs, 'OCR', () => {
        timedOut = true;
        discard(slot);
      });
      return {
        text: data.text ?? '',
        confidence: Math.max(0, Math.min(1, (data.confidence ?? 0) / 100)),
        words: ocrWordsOf(data.blocks),
      };
    } catch (err) {
      throw toOcrError(err, slot, discard);
    } finally {
      release(slot);
    }
  }

  async function close(): Promise<void> {
    closed = true;
    for (const slot of slots) clearTimeout(slot.idleTimer);
    for (const resolve of waiting.splice(0)) resolve(null);
    await Promise.all(
      slots.map((slot) => {
        const worker = slot.worker;
        slot.worker = undefined;
        return terminateLater(worker);
      }),
    );
  }

  return { recognize, close, running: () => slots.filter((s) => s.worker !== undefined).length };
}

/**
 * Terminates a worker once pending microtasks have run. tesseract.js posts a job a few
 * microtasks after `recognize()` is called; terminating in between makes its internal send
 * fail as an unhandled rejection. The job of a terminated worker never settles, which the
 * caller's timeout already covers.
 */
async function terminateLater(worker: Promise<Tesseract.Worker> | undefined): Promise<void> {
  if (!worker) return;
  await new Promise((resolve) => setImmediate(resolve));
  await worker.then((w) => w.terminate()).catch(() => undefined);
}

function toOcrError(err: unknown, slot: Slot, discard: (s: Slot) => void): OcrError {
  if (err instanceof TimeoutError) return new OcrError('timeout', err.message, { cause: err });
  const message = err instanceof Error ? err.message : String(err);
  // Leptonica's wording when it cannot decode the bytes; the worker itself is fine.
  if (/read image|pixRead|Unknown format|image file/i.test(message)) {
    return new OcrError('bad_image', `image could not be decoded: ${message}`, { cause: err });
  }
  // Anything else may have left the worker broken: start a fresh one next time.
  discard(slot);
  return new OcrError('failed', `OCR failed: ${message}`, { cause: err });
}
