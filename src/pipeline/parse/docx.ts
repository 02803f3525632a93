import mammoth from 'mammoth';
import { ParseError } from './errors.js';
import { listZipEntries } from './zip.js';
import { normalizeText } from './text.js';

/** Options for {@link docxToText}. */
export interface DocxOptions {
  /**
   * Refuse archives whose entries declare more than this many uncompressed bytes in total,
   * because mammoth inflates every part in memory (a zip bomb would exhaust the heap).
   * Default 256 MiB.
   */
  maxUncompressedBytes?: number;
}

/** Word (OOXML) documents: body text, paragraphs on their own lines. */
export async function docxToText(buf: Buffer, opts: DocxOptions = {}): Promise<string> {
  const limit = opts.maxUncompressedBytes ?? 256 * 1024 * 1024;
  const declared = listZipEntries(buf).reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (declared > limit) {
    throw new ParseError('CORRUPT', `DOCX declares ${declared} uncompressed bytes, over the ${limit} byte limit`);
  }
  let value: string;
  try {
    ({ value } = await mammoth.extractRawText({ buffer: buf }));
  } catch (err) {
    throw new ParseError('CORRUPT', `DOCX could not be read: ${(err as Error)?.message ?? String(err)}`, { cause: err });
  }
  return normalizeText(value);
}
