export type ErrorCode =
  | 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'VALIDATION_ERROR' | 'CONFLICT' | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE' | 'RATE_LIMITED' | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

export interface FieldIssue {
  field: string;
  message: string;
  /** Where the field was: body, querystring, params, headers. */
  in?: string;
}

/** The one error type that crosses from services to HTTP; the error handler turns it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const errors = {
  unauthorized: (message = 'Invalid or missing credentials') => new AppError('UNAUTHORIZED', 401, message),
  forbidden: (message = 'You are not allowed to do this') => new AppError('FORBIDDEN', 403, message),
  notFound: (what: string) => new AppError('NOT_FOUND', 404, `${what} not found`),
  validation: (message: string, details?: FieldIssue[]) => new AppError('VALIDATION_ERROR', 400, message, details),
  invalidField: (field: string, message: string) =>
    new AppError('VALIDATION_ERROR', 400, `${field}: ${message}`, [{ field, message }]),
  conflict: (message: string, details?: unknown) => new AppError('CONFLICT', 409, message, details),
  tooLarge: (message: string) => new AppError('PAYLOAD_TOO_LARGE', 413, message),
  unsupportedMedia: (message: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', 415, message),
  rateLimited: (retryAfter: number, headers: Record<string, string> = {}) =>
    new AppError('RATE_LIMITED', 429, `Rate limit exceeded; retry in ${retryAfter} s`, undefined, {
      ...headers,
      'Retry-After': String(retryAfter),
    }),
  unavailable: (message: string) => new AppError('SERVICE_UNAVAILABLE', 503, message),
};
