// The one error handler answers every domain error class with its status, code and envelope, so
// domain code never needs to know about HTTP.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installErrorHandler } from '../../../src/http/error-handler.js';
import { HttpError } from '../../../src/http/errors.js';
import {
  ConflictError,
  DomainError,
  errors,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  PermanentError,
  RateLimitedError,
  UnauthorizedError,
  UnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../../src/lib/errors.js';

async function answer(err: Error) {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  app.get('/x', async () => {
    throw err;
  });
  const res = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

describe('domain errors', () => {
  it('each class has its own name and a stable code, and is a DomainError', () => {
    const all: [DomainError, string, string][] = [
      [errors.notFound('Project'), 'NotFoundError', 'NOT_FOUND'],
      [errors.invalidField('name', 'is required'), 'ValidationError', 'VALIDATION_ERROR'],
      [errors.conflict('busy'), 'ConflictError', 'CONFLICT'],
      [errors.unauthorized(), 'UnauthorizedError', 'UNAUTHORIZED'],
      [errors.forbidden(), 'ForbiddenError', 'FORBIDDEN'],
      [errors.tooLarge('big'), 'PayloadTooLargeError', 'PAYLOAD_TOO_LARGE'],
      [errors.unsupportedMedia('zip'), 'UnsupportedMediaTypeError', 'UNSUPPORTED_MEDIA_TYPE'],
      [errors.rateLimited(3), 'RateLimitedError', 'RATE_LIMITED'],
      [errors.unavailable('down'), 'UnavailableError', 'SERVICE_UNAVAILABLE'],
      [new PermanentError('CORRUPT', 'unreadable'), 'PermanentError', 'CORRUPT'],
    ];
    for (const [err, name, code] of all) {
      expect(err).toBeInstanceOf(DomainError);
      expect(err.name).toBe(name);
      expect(err.code).toBe(code);
      expect(String(err)).toContain(name);
    }
    expect(errors.notFound('Project')).toBeInstanceOf(NotFoundError);
  });

  it.each([
    [new ValidationError('bad', [{ field: 'name', message: 'is required' }]), 400, 'VALIDATION_ERROR'],
    [new UnauthorizedError('who are you'), 401, 'UNAUTHORIZED'],
    [new ForbiddenError('no'), 403, 'FORBIDDEN'],
    [new NotFoundError('Project not found'), 404, 'NOT_FOUND'],
    [new ConflictError('in use', { ids: ['a'] }), 409, 'CONFLICT'],
    [new PayloadTooLargeError('big'), 413, 'PAYLOAD_TOO_LARGE'],
    [new UnsupportedMediaTypeError('zip'), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [new UnavailableError('down'), 503, 'SERVICE_UNAVAILABLE'],
  ])('%s answers %i %s with its message and details', async (err, status, code) => {
    const r = await answer(err);
    expect(r.status).toBe(status);
    expect(r.body.success).toBe(false);
    expect(r.body.error.code).toBe(code);
    expect(r.body.error.message).toBe(err.message);
    expect(r.body.error.details).toEqual(err.details);
  });

  it('a rate limit answers 429 with Retry-After and the limiter headers', async () => {
    const r = await answer(new RateLimitedError(7, { 'X-RateLimit-Limit': '30' }));
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('7');
    expect(r.headers['x-ratelimit-limit']).toBe('30');
  });

  it('an error that only means something to workers is a 500 with a generic message, never its text', async () => {
    const r = await answer(new PermanentError('CORRUPT', 'secret detail'));
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('INTERNAL_ERROR');
    expect(r.body.error.message).not.toContain('secret');
  });

  it('HTTP-only errors keep their status and headers', async () => {
    const r = await answer(new HttpError('METHOD_NOT_ALLOWED', 405, 'use GET', { Allow: 'GET' }));
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET');
  });
});
