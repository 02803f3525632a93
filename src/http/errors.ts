// What the error envelope can say, and the status each domain error code is answered with. Domain
// and worker code throw the classes of src/lib/errors.ts; only the error handler reads this table.
import type { DomainError } from '../lib/errors.js';

export type ErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'VALIDATION_ERROR'
  | 'CONFLICT'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE'
  | 'TOKEN_EXPIRED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'UNPROCESSABLE';

/** HTTP status of each domain error code; a code missing here is a bug and answers 500. */
export const STATUS_OF_CODE: Readonly<Record<string, number>> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  UNPROCESSABLE: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
};

/** An error only HTTP has (a method the route does not take), with the headers it must carry. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** The status a domain error is answered with, or undefined when it has no HTTP meaning. */
export function statusOf(err: DomainError): number | undefined {
  return STATUS_OF_CODE[err.code];
}
