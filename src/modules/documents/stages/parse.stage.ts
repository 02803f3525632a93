import type { BlobStore } from '../../../storage/blob-store.js';
import { packLayout, parseDocument, ParseError, type Ocr, type PdfEngine } from '../../../pipeline/parse/index.js';
import { PermanentError } from '../../../lib/errors.js';
import type { PartOutcome } from '../message-parts/index.js';
import type { DocumentRow } from '../documents.types.js';
import type { StageCompute } from '../stage-runner.js';

/** Bumped when parsing output changes, so `reprocess --missing` can re-parse. */
export const PARSER_VERSION = 'parse-3';

export function parseStage(deps: {
  blobs: BlobStore;
  maxPages: number;
  maxImagePixels?: number;
  ocr: () => Promise<Ocr | undefined>;
  pdf: () => PdfEngine;
  /**
   * Turns the attachments of an uploaded e-mail into documents of their own (mail intake does
   * that itself for the mail it fetches, so documents from a mailbox are left alone).
   */
  attachments?: (doc: DocumentRow, raw: Buffer) => Promise<PartOutcome[]>;
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
      const cols: Record<string, unknown> = {
        text_content: r.text,
        page_count: r.pages,
        language: r.language ?? null,
        mime_type: r.mimeType,
        // Images have no PDF layout, only OCR word boxes (kept for field positions).
        layout: r.layout || r.ocrWords ? packLayout(r.layout ?? [], r.ocrWords, r.ocrSizes) : null,
        parsed_at: new Date(),
        parser_version: PARSER_VERSION,
      };
      // Before the commit, so a crash in between re-runs it; it finds its own documents again.
      if (deps.attachments && r.mimeType === 'message/rfc822' && doc.source !== 'email') {
        const parts = await deps.attachments(doc, bytes);
        if (parts.length > 0) cols.source_metadata = { ...doc.source_metadata, attachments: parts };
      }
      return {
        cols,
        searchText: r.text,
        searchLanguage: r.language ?? null,
        note: r.ocrPages > 0 ? `${r.ocrPages} page(s) read by OCR` : undefined,
      };
    } catch (err) {
      if (err instanceof ParseError && err.permanent) throw new PermanentError(err.code, err.message, { cause: err });
      throw err;
    }
  };
}
