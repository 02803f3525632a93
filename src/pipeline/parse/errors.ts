/**
 * Why a document could not be turned into text.
 * - `EMPTY`: the file is readable but holds no text (and OCR found none).
 * - `ENCRYPTED`: a password is needed to open it.
 * - `CORRUPT`: the bytes claim a known type but cannot be read as that type.
 * - `UNSUPPORTED_TYPE`: the bytes are not a type this stage handles (zip, garbage, …).
 * - `TOO_MANY_PAGES`: the page count exceeds the configured limit.
 * - `TOO_LARGE`: decoding the file would pass a configured bound (bytes inflated from an
 *   archive, pixels of an image, the parser's memory limit, or the 10 million characters of text
 *   a document may have): a decompression bomb, or a file too big for this server's settings.
 * - `OCR_FAILED`: OCR was needed and failed, timed out, or is not configured.
 */
export type ParseErrorCode =
  'EMPTY' | 'ENCRYPTED' | 'CORRUPT' | 'UNSUPPORTED_TYPE' | 'TOO_MANY_PAGES' | 'TOO_LARGE' | 'OCR_FAILED';

/** Retrying cannot change the outcome of these; OCR failures may be load or crash related. */
const PERMANENT_BY_DEFAULT: Record<ParseErrorCode, boolean> = {
  EMPTY: true,
  ENCRYPTED: true,
  CORRUPT: true,
  UNSUPPORTED_TYPE: true,
  TOO_MANY_PAGES: true,
  TOO_LARGE: true,
  OCR_FAILED: false,
};

/**
 * The only error type the parse stage throws for bad input. `permanent` tells the stage
 * whether a retry can help (it rethrows `true` as the domain's PermanentError).
 */
export class ParseError extends Error {
  override readonly name = 'ParseError';
  readonly permanent: boolean;

  constructor(
    readonly code: ParseErrorCode,
    message: string,
    options?: { permanent?: boolean; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.permanent = options?.permanent ?? PERMANENT_BY_DEFAULT[code];
  }
}

export function isParseError(err: unknown): err is ParseError {
  return err instanceof ParseError;
}
