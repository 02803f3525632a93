// The errors domain code throws on purpose. Each class has a `name` and a stable `code`; callers
// match them by type (`instanceof`), never by message text. The HTTP layer maps each code to a
// status and the error envelope in its one error handler (src/http/error-handler.ts); workers map
// PermanentError to "fail now, do not retry". Nothing here knows about HTTP or BullMQ.

/** One problem with one input field. */
export interface FieldIssue {
  field: string;
  message: string;
  /** Where the field was: body, querystring, params, headers, form. */
  in?: string;
}

/** Base of every deliberate domain error. `details` is safe to show to the caller. */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  constructor(
    message: string,
    readonly details?: unknown,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export class NotFoundError extends DomainError {
  override readonly name: string = 'NotFoundError';
  readonly code = 'NOT_FOUND';
}

/** The input is wrong; `details` lists each field. */
export class ValidationError extends DomainError {
  override readonly name: string = 'ValidationError';
  readonly code = 'VALIDATION_ERROR';
  declare readonly details: FieldIssue[] | undefined;
}

/** The request is fine but the current state refuses it (already exists, in use, archived, …). */
export class ConflictError extends DomainError {
  override readonly name: string = 'ConflictError';
  readonly code = 'CONFLICT';
}

/** No valid credential. */
export class UnauthorizedError extends DomainError {
  override readonly name: string = 'UnauthorizedError';
  readonly code = 'UNAUTHORIZED';
}

/** A token that was valid and has expired (a 401 like UNAUTHORIZED, with its own code so clients know to refresh). */
export class TokenExpiredError extends DomainError {
  override readonly name: string = 'TokenExpiredError';
  readonly code = 'TOKEN_EXPIRED';
}

/** An Idempotency-Key used again with a different request (a 422: the key cannot mean both). */
export class IdempotencyKeyReusedError extends DomainError {
  override readonly name: string = 'IdempotencyKeyReusedError';
  readonly code = 'IDEMPOTENCY_KEY_REUSED';
  constructor(
    message = 'This Idempotency-Key was used with a different request (method, path or body); use a new key for a new request',
  ) {
    super(message);
  }
}

/**
 * A well-formed request about a resource that cannot be done with what the resource holds (a
 * template learned from a document whose corrected values are not in its text): a 422.
 */
export class UnprocessableError extends DomainError {
  override readonly name: string = 'UnprocessableError';
  readonly code = 'UNPROCESSABLE';
}

/** A valid credential that may not do this. */
export class ForbiddenError extends DomainError {
  override readonly name: string = 'ForbiddenError';
  readonly code = 'FORBIDDEN';
}

export class PayloadTooLargeError extends DomainError {
  override readonly name: string = 'PayloadTooLargeError';
  readonly code = 'PAYLOAD_TOO_LARGE';
}

export class UnsupportedMediaTypeError extends DomainError {
  override readonly name: string = 'UnsupportedMediaTypeError';
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
}

/**
 * A limit was reached; retry after `retryAfterSec`. `headers` carries the limiter's state in the
 * standard rate-limit header names, so whoever answers can pass it on.
 */
export class RateLimitedError extends DomainError {
  override readonly name: string = 'RateLimitedError';
  readonly code = 'RATE_LIMITED';
  constructor(
    readonly retryAfterSec: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(`Rate limit exceeded; retry in ${retryAfterSec} s`);
  }
}

/** A dependency (database, Redis, a backend) cannot serve right now; a retry may succeed. */
export class UnavailableError extends DomainError {
  override readonly name: string = 'UnavailableError';
  readonly code = 'SERVICE_UNAVAILABLE';
}

/**
 * Work that retrying cannot fix (a corrupt file, an unsupported type, a message that cannot be
 * read): the job fails now instead of using up its attempts. `code` says why, e.g. `CORRUPT`.
 */
export class PermanentError extends DomainError {
  override readonly name: string = 'PermanentError';
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, undefined, options);
  }
}

/** Shorthands for the common cases, so messages read the same everywhere. */
export const errors = {
  unauthorized: (message = 'Invalid or missing credentials') => new UnauthorizedError(message),
  tokenExpired: (message = 'The access token has expired; get a new one with POST /auth/refresh') =>
    new TokenExpiredError(message),
  forbidden: (message = 'You are not allowed to do this', details?: unknown) => new ForbiddenError(message, details),
  notFound: (what: string) => new NotFoundError(`${what} not found`),
  validation: (message: string, details?: FieldIssue[]) => new ValidationError(message, details),
  invalidField: (field: string, message: string) => new ValidationError(`${field}: ${message}`, [{ field, message }]),
  conflict: (message: string, details?: unknown) => new ConflictError(message, details),
  unprocessable: (message: string, details?: FieldIssue[]) => new UnprocessableError(message, details),
  tooLarge: (message: string) => new PayloadTooLargeError(message),
  unsupportedMedia: (message: string) => new UnsupportedMediaTypeError(message),
  rateLimited: (retryAfterSec: number, headers: Record<string, string> = {}) =>
    new RateLimitedError(retryAfterSec, headers),
  unavailable: (message: string, details?: unknown) => new UnavailableError(message, details),
};
