import { createRequire } from 'node:module';
import path from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ParseError } from './errors.js';

export type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Largest embedded image pdf.js will decode, in pixels: a decompression bomb stops here. */
const MAX_IMAGE_PIXELS = 100_000_000;

/** Where pdf.js finds the data it needs offline: standard fonts, CMaps, ICC profiles, wasm decoders. */
function assetDirs(): Record<'standardFontDataUrl' | 'cMapUrl' | 'iccUrl' | 'wasmUrl', string> {
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  // pdf.js in Node reads these with fs; it needs the trailing separator to append file names.
  const dir = (name: string): string => path.join(root, name) + path.sep;
  return { standardFontDataUrl: dir('standard_fonts'), cMapUrl: dir('cmaps'), iccUrl: dir('iccs'), wasmUrl: dir('wasm') };
}

function describe(err: unknown): { name: string; message: string } {
  const e = err as { name?: unknown; message?: unknown } | null;
  return { name: typeof e?.name === 'string' ? e.name : 'Error', message: typeof e?.message === 'string' ? e.message : String(err) };
}

/** Maps what pdf.js throws while opening a document to the parse stage's codes. */
export function pdfOpenError(err: unknown): ParseError {
  if (err instanceof ParseError) return err;
  const { name, message } = describe(err);
  if (name === 'PasswordException') {
    return new ParseError('ENCRYPTED', 'PDF is password-protected', { cause: err });
  }
  return new ParseError('CORRUPT', `PDF could not be opened: ${message}`, { cause: err });
}

/**
 * Opens a PDF with pdf.js (legacy build, the one meant for Node). pdf.js is imported lazily so
 * processes that never parse PDFs do not pay its start-up cost. The caller must `destroy()` it.
 */
export async function openPdf(bytes: Buffer): Promise<PDFDocumentProxy> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    // A copy: pdf.js may take ownership of (and detach) the buffer it is given.
    data: new Uint8Array(bytes),
    ...assetDirs(),
    cMapPacked: true,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    // Font programs from untrusted files must never be turned into JavaScript.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    stopAtErrors: false,
    maxImageSize: MAX_IMAGE_PIXELS,
  });
  try {
    return await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw pdfOpenError(err);
  }
}
