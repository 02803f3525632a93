import { ParseError } from './errors.js';
import { normalizeText } from './text.js';
import { openZip } from './unzip.js';
import { lazy } from '../../lib/lazy.js';

// Loaded on first use: mammoth costs ~15 MB that a process converting no DOCX never needs.
const loadMammoth = lazy(() => import('mammoth'));

/** Default for {@link DocxOptions.maxInflatedBytes}. */
export const DEFAULT_MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/** Options for {@link docxToText}. */
export interface DocxOptions {
  /**
   * Bytes the parts mammoth reads may inflate to, all together, counted while inflating (the
   * sizes an archive declares are never trusted). Past it the document fails as TOO_LARGE.
   * Default 64 MiB: the XML of a very long report is a few MB, and mammoth's XML tree costs
   * tens of bytes of memory per byte of XML.
   */
  maxInflatedBytes?: number;
}

/** What mammoth needs of an opened .docx: it reads parts by name, lazily. */
interface DocxFile {
  exists(name: string): boolean;
  read(name: string, encoding?: string): Promise<string | Uint8Array>;
}

/**
 * Word (OOXML) documents: body text, paragraphs on their own lines. The archive is read by a
 * bounded unzip (see {@link openZip}) instead of mammoth's own JSZip, which inflates a whole
 * entry before it compares it with the declared size.
 */
export async function docxToText(buf: Buffer, opts: DocxOptions = {}): Promise<string> {
  const zip = openZip(buf, { maxInflatedBytes: opts.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES });
  const file: DocxFile = {
    exists: (name) => zip.has(name),
    async read(name, encoding) {
      const data = zip.read(name);
      if (encoding === 'base64') return data.toString('base64');
      return encoding ? new TextDecoder(encoding).decode(data) : data;
    },
  };
  const mammoth = await loadMammoth();
  let value: string;
  try {
    // mammoth accepts an already opened file as `{ file }`; its typings list only path and buffer.
    ({ value } = await mammoth.extractRawText({ file } as unknown as { buffer: Buffer }));
  } catch (err) {
    if (err instanceof ParseError) throw err;
    throw new ParseError('CORRUPT', `DOCX could not be read: ${(err as Error)?.message ?? String(err)}`, {
      cause: err,
    });
  }
  return normalizeText(value);
}
