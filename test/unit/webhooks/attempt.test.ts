import { describe, expect, it } from 'vitest';
import { classifyAttempt } from '../../../src/modules/webhooks/attempt.js';
import type { SafeFetchErrorCode } from '../../../src/lib/http-client/safe-fetch.js';

const err = (code: SafeFetchErrorCode) => ({ code, message: code });

describe('classifyAttempt', () => {
  it.each([200, 201, 202, 204, 299])('%i is delivered', (status) => {
    expect(classifyAttempt({ status })).toBe('delivered');
  });

  it('410 means gone', () => expect(classifyAttempt({ status: 410 })).toBe('gone'));

  it.each([100, 199, 300, 301, 302, 307, 308, 400, 401, 404, 408, 429, 500, 502, 503, 504])(
    '%i is retried',
    (status) => {
      expect(classifyAttempt({ status })).toBe('retry');
    },
  );

  it.each(['TIMEOUT', 'NETWORK', 'DNS', 'FORBIDDEN_ADDRESS'] as const)('%s is retried', (code) => {
    expect(classifyAttempt({ status: 0, error: err(code) })).toBe('retry');
  });

  it('an invalid URL stops at once', () => {
    expect(classifyAttempt({ status: 0, error: err('INVALID_URL') })).toBe('gone');
  });

  it('a 2xx whose body then timed out is not a delivery', () => {
    expect(classifyAttempt({ status: 200, error: err('TIMEOUT') })).toBe('retry');
  });
});
