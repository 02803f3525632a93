// classifyGoogleError against error shapes the library produces (built by hand here; the
// integration tests produce the real ones through the fake).
import { describe, expect, it } from 'vitest';
import { classifyGoogleError, parseRetryAfter } from '../../../src/modules/integrations/sheets/client/errors.js';

const apiError = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`Request failed with status code ${status}`), {
    status,
    response: { status, data: body, headers: new Headers(headers) },
  });
const googleBody = (code: number, status: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { code, status, message, ...extra },
});

describe('classifyGoogleError', () => {
  it.each([408, 429, 500, 502, 503, 504])('%i → retry', (status) => {
    expect(classifyGoogleError(apiError(status, googleBody(status, 'X', 'm')))).toMatchObject({
      kind: 'retry',
      status,
    });
  });

  it.each([
    [400, 'INVALID_ARGUMENT'],
    [401, 'UNAUTHENTICATED'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
  ])('%i → fatal with Google’s message', (status, code) => {
    expect(classifyGoogleError(apiError(status, googleBody(status, code, `msg ${status}`)))).toEqual({
      kind: 'fatal',
      status,
      code,
      reason: `msg ${status}`,
    });
  });

  it('Retry-After seconds, HTTP date, and RetryInfo in the body', () => {
    expect(
      classifyGoogleError(apiError(429, googleBody(429, 'RESOURCE_EXHAUSTED', 'q'), { 'Retry-After': '30' })),
    ).toMatchObject({ kind: 'retry', retryAfterMs: 30_000 });
    const info = { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' }] };
    expect(classifyGoogleError(apiError(503, googleBody(503, 'UNAVAILABLE', 'u', info)))).toMatchObject({
      kind: 'retry',
      retryAfterMs: 1500,
    });
    const plainHeaders = Object.assign(new Error('x'), {
      response: { status: 429, data: '', headers: { 'retry-after': '2' } },
    });
    expect(classifyGoogleError(plainHeaders)).toMatchObject({ kind: 'retry', retryAfterMs: 2000 });
    expect(parseRetryAfter(new Date(1_000_000 + 5000).toUTCString(), 1_000_000)).toBe(5000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('403 with a rate-limit reason (old-style errors[] or ErrorInfo) → retry', () => {
    expect(
      classifyGoogleError(
        apiError(403, googleBody(403, 'PERMISSION_DENIED', 'r', { errors: [{ reason: 'userRateLimitExceeded' }] })),
      ),
    ).toMatchObject({ kind: 'retry' });
    expect(
      classifyGoogleError(
        apiError(403, googleBody(403, 'PERMISSION_DENIED', 'r', { details: [{ reason: 'RATE_LIMIT_EXCEEDED' }] })),
      ),
    ).toMatchObject({ kind: 'retry' });
  });

  it('OAuth token endpoint bodies, JSON in a string body, and bodies that are not JSON', () => {
    expect(
      classifyGoogleError(
        apiError(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }),
      ),
    ).toEqual({ kind: 'fatal', status: 400, code: 'invalid_grant', reason: 'Token has been expired or revoked.' });
    expect(classifyGoogleError(apiError(404, JSON.stringify(googleBody(404, 'NOT_FOUND', 'gone'))))).toMatchObject({
      kind: 'fatal',
      reason: 'gone',
    });
    expect(classifyGoogleError(apiError(502, '<html>bad gateway</html>'))).toMatchObject({
      kind: 'retry',
      status: 502,
    });
    expect(classifyGoogleError(apiError(418, '<html/>'))).toEqual({
      kind: 'fatal',
      status: 418,
      reason: 'Request failed with status code 418',
    });
  });

  it('network failures → retry, found through the cause chain', () => {
    const fetchFailed = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect'), { code: 'ECONNRESET' }),
    });
    expect(classifyGoogleError(Object.assign(new Error('request to x failed'), { cause: fetchFailed }))).toEqual({
      kind: 'retry',
      reason: 'network: ECONNRESET',
    });
    expect(classifyGoogleError(Object.assign(new Error('t'), { code: 'ETIMEDOUT' }))).toMatchObject({ kind: 'retry' });
  });

  it('anything without a response or a network code is fatal with status 0', () => {
    expect(classifyGoogleError(new Error('error:1E08010C:DECODER routines::unsupported'))).toEqual({
      kind: 'fatal',
      status: 0,
      reason: 'error:1E08010C:DECODER routines::unsupported',
    });
    expect(classifyGoogleError('boom')).toEqual({ kind: 'fatal', status: 0, reason: 'boom' });
    expect(classifyGoogleError(new RangeError('no rows to write'))).toMatchObject({ kind: 'fatal', status: 0 });
  });
});
