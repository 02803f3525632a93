import type { BlobStore } from '../../../storage/blob-store.js';
import { packLayout, parseDocument, ParseError, type Ocr, type PdfEngine } from '../../../pipeline/parse/index.js';
import { PermanentError } from '../../../lib/errors.js';
import type { StageCompute } from '../stage-runner.js';

/** Bumped when parsing output changes, so `reprocess --missing` can re-parse. */
export const PARSER_VERSION = 'parse-2';

export function parseStage(deps: {
  blobs: BlobStore; maxPages: number; maxImagePixels?: number; ocr: () => Promise<Ocr | undefined>; pdf: () => PdfEngine;
}): StageCompute {
  return async (doc) => {
    let bytes: Buffer;
    try {
      bytes = await deps.blobs.read(doc.storage_key);
    } catch {
      throw new PermanentError('FILE_MISSING', 'The stored file is missing');
    }
    try {
      const r = await parseDocument(
        { bytes, filename: doc.filename, maxPages: deps.maxPages },
        { ocr: await deps.ocr(), pdf: deps.pdf() },
        { maxImagePixels: deps.maxImagePixels },
      );
      return {
        cols: {
          text_content: r.text, page_count: r.pages, language: r.language ?? null, mime_type: r.mimeType,
          layout: r.layout ? packLayout(r.layout) : null,
          parsed_at: new Date(), parser_version: PARSER_VERSION,
        },
        searchText: r.text,
        note: r.ocrPages > 0 ? `${r.ocrPages} page(s) read by OCR` : undefined,
      };
    } catch (err) {
      if (err instanceof ParseError && err.permanent) throw new PermanentError(err.code, err.message, { cause: err });
      throw err;
    }
  };
}
