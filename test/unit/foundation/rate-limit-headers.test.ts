import { describe, expect, it } from 'vitest';
import { rateLimitHeaders, type PolicyState } from '../../../src/modules/access/rate-limit.js';

const state = (name: string, limit: number, windowSec: number, remaining: number, resetSec: number): PolicyState => ({
  policy: { name, key: `k:${name}`, limit, windowSec },
  remaining,
  resetSec,
});

describe('rateLimitHeaders', () => {
  it('lists every policy and reports the tightest in X-RateLimit-*', () => {
    const h = rateLimitHeaders(
      [
        state('org-minute', 120, 60, 100, 41),
        state('key-minute', 10, 60, 3, 41),
        state('key-day', 1000, 86_400, 500, 5000),
      ],
      1_000_000,
    );
    expect(h['RateLimit-Policy']).toBe('"org-minute";q=120;w=60, "key-minute";q=10;w=60, "key-day";q=1000;w=86400');
    expect(h.RateLimit).toBe('"org-minute";r=100;t=41, "key-minute";r=3;t=41, "key-day";r=500;t=5000');
    expect(h['X-RateLimit-Limit']).toBe('10');
    expect(h['X-RateLimit-Remaining']).toBe('3');
    expect(h['X-RateLimit-Reset']).toBe(String(1_000_000 + 41));
  });

  it('on a tie in remaining, the later reset wins (the caller must wait longest for it)', () => {
    const h = rateLimitHeaders([state('key-minute', 5, 60, 0, 20), state('key-day', 5, 86_400, 0, 7000)], 100);
    expect(h['X-RateLimit-Limit']).toBe('5');
    expect(h['X-RateLimit-Reset']).toBe('7100');
  });

  it('no policies, no headers', () => {
    expect(rateLimitHeaders([])).toEqual({});
  });
});
