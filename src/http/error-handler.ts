import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, RateLimitedError } from '../lib/errors.js';
import { HttpError, statusOf } from './errors.js';
import { toFieldIssues } from './validation.js';
import { describeBytes } from '../lib/bytes.js';
import { ACCEPTED_CONTENT_TYPES, JSON_BODY_LIMIT, MULTIPART_LIMITS } from './limits.js';

type Envelope = { code: string; message: string; details?: unknown };

function send(
  reply: FastifyReply,
  req: FastifyRequest,
  status: number,
  body: Envelope,
  headers?: Record<string, string>,
) {
  if (headers) reply.headers(headers);
  return reply.status(status).send({ success: false, error: { ...body, request_id: req.id } });
}

/** "Request body is larger than the maximum of 1 MiB (1048576 bytes)" for the route's limit. */
function bodyTooLarge(req: FastifyRequest): string {
  const limit = req.routeOptions?.bodyLimit ?? JSON_BODY_LIMIT;
  return `Request body is larger than the maximum of ${describeBytes(limit)} for this endpoint`;
}

/** Names the Content-Type that was sent and the ones accepted. */
function mediaTypeRefused(req: FastifyRequest): string {
  const sent = req.headers['content-type'];
  return `${sent ? `Content-Type "${String(sent).slice(0, 100)}" is not accepted` : 'A Content-Type is required for a request body'}; send ${ACCEPTED_CONTENT_TYPES}`;
}

// Fastify's own error codes, mapped onto the envelope's codes. A function message is built per request.
const FASTIFY_CODES: Record<
  string,
  { status: number; code: string; message?: string | ((req: FastifyRequest) => string) }
> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: bodyTooLarge },
  FST_REQ_FILE_TOO_LARGE: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'Uploaded file is larger than the maximum upload size (MAX_UPLOAD_MB)',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: mediaTypeRefused },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Expected Content-Type multipart/form-data',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'VALIDATION_ERROR',
    message: 'Content-Length does not match the body',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'VALIDATION_ERROR',
    message: 'Body must not be empty when Content-Type is application/json',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'VALIDATION_ERROR', message: 'Body is not valid JSON' },
  FST_PARTS_LIMIT: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `Too many multipart parts: at most ${MULTIPART_LIMITS.parts}`,
  },
  FST_FILES_LIMIT: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `Too many files: at most ${MULTIPART_LIMITS.files} per upload`,
  },
  FST_FIELDS_LIMIT: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `Too many form fields: at most ${MULTIPART_LIMITS.fields}`,
  },
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | DomainError | Error, req, reply) => {
    if (err instanceof DomainError) {
      const status = statusOf(err);
      if (status !== undefined) {
        const headers =
          err instanceof RateLimitedError ? { ...err.headers, 'Retry-After': String(err.retryAfterSec) } : undefined;
        return send(
          reply,
          req,
          status,
          { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) },
          headers,
        );
      }
    }
    if (err instanceof HttpError)
      return send(reply, req, err.status, { code: err.code, message: err.message }, err.headers);
    const fe = err as FastifyError & { validation?: unknown[]; validationContext?: string };
    if (fe.validation) {
      const details = toFieldIssues(fe.validation as never, fe.validationContext);
      const msg = details.map((d) => `${d.field} ${d.message}`).join('; ');
      return send(reply, req, 400, {
        code: 'VALIDATION_ERROR',
        message: `Invalid ${fe.validationContext ?? 'request'}: ${msg}`,
        details,
      });
    }
    const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
    if (mapped) {
      const message = typeof mapped.message === 'function' ? mapped.message(req) : (mapped.message ?? fe.message);
      return send(reply, req, mapped.status, { code: mapped.code, message });
    }
    if (err instanceof SyntaxError || fe.statusCode === 400) {
      return send(reply, req, 400, { code: 'VALIDATION_ERROR', message: 'Malformed request' });
    }
    // Backstop for text decoded from formats the input check cannot see into (YAML escapes, …):
    // PostgreSQL refuses NUL and invalid byte sequences; that is the client's input, not a fault.
    const pgCode = (err as { code?: string }).code;
    if (pgCode === '22021' || pgCode === '22P05') {
      return send(reply, req, 400, {
        code: 'VALIDATION_ERROR',
        message: 'The request contains characters that cannot be stored (such as NUL, \\u0000)',
      });
    }
    if (pgCode === '23505') {
      return send(reply, req, 409, { code: 'CONFLICT', message: 'A resource with these values already exists' });
    }
    if (fe.statusCode === 413) return send(reply, req, 413, { code: 'PAYLOAD_TOO_LARGE', message: bodyTooLarge(req) });
    if (fe.statusCode === 415)
      return send(reply, req, 415, { code: 'UNSUPPORTED_MEDIA_TYPE', message: mediaTypeRefused(req) });
    req.log.error({ err }, 'unhandled error');
    return send(reply, req, 500, { code: 'INTERNAL_ERROR', message: 'Internal server error' });
  });
}
