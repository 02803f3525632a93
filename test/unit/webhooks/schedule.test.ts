import { describe, expect, it } from 'vitest';
import {
  createJitter,
  defaultJitter,
  honourRetryAfter,
  nextDelayMs,
  noJitter,
  parseRetryAfterMs,
} from '../../../src/modules/webhooks/schedule.js';
import { loadConfig, parseRetryDelays } from '../../../src/config.js';

describe('parseRetryDelays', () => {
  it('defaults to the seed schedule, in milliseconds', () => {
    const seed = [60_000, 300_000, 1_800_000, 7_200_000, 43_200_000];
    expect(parseRetryDelays()).toEqual(seed);
    expect(parseRetryDelays('  ')).toEqual(seed);
  });

  it('accepts fractions of seconds for fast tests', () => {
    expect(parseRetryDelays('0.05, 0.1,1.5')).toEqual([50, 100, 1500]);
    expect(parseRetryDelays('0,.2')).toEqual([0, 200]);
  });

  it.each([
    ['60,,300', /entry 2/],
    ['60,', /entry 2/],
    ['-1', /non-negative/],
    ['1e3', /entry 1/],
    ['abc', /"abc"/],
    ['10s', /entry 1/],
    ['700000', /maximum/],
    [Array.from({ length: 51 }, () => '1').join(','), /at most 50/],
  ])('rejects %j with a clear message', (spec, message) => {
    expect(() => parseRetryDelays(spec)).toThrow(message);
    // Checked once, when the configuration loads.
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS: spec }, { persistSecrets: false })).toThrow(/WEBHOOK_RETRY_DELAYS/);
  });

  it('is parsed by the configuration, the seed schedule by default', () => {
    expect(loadConfig({}, { persistSecrets: false }).WEBHOOK_RETRY_DELAYS).toEqual([
      60_000, 300_000, 1_800_000, 7_200_000, 43_200_000,
    ]);
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS: '0.05,1' }, { persistSecrets: false }).WEBHOOK_RETRY_DELAYS).toEqual([
      50, 1000,
    ]);
  });
});

describe('nextDelayMs', () => {
  const delays = [100, 200, 300];

  it('walks the schedule and returns null when it is exhausted (attempts = 1 + retries)', () => {
    expect([1, 2, 3, 4].map((n) => nextDelayMs(n, delays, noJitter))).toEqual([100, 200, 300, null]);
  });

  it('applies the jitter and never returns a negative delay', () => {
    expect(nextDelayMs(2, delays, (ms) => ms * 2)).toBe(400);
    expect(nextDelayMs(1, delays, () => -5)).toBe(0);
  });

  it('rejects nonsense attempt counts', () => {
    expect(() => nextDelayMs(0, delays)).toThrow(RangeError);
    expect(() => nextDelayMs(1.5, delays)).toThrow(RangeError);
  });
});

describe('jitter', () => {
  it('keeps the default within ±20 % and actually spreads values', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = defaultJitter(1000);
      expect(v).toBeGreaterThanOrEqual(800);
      expect(v).toBeLessThanOrEqual(1200);
      seen.add(Math.round(v / 50));
    }
    expect(seen.size).toBeGreaterThan(5);
  });

  it('hits the exact bounds with an injected random source', () => {
    expect(createJitter(0.2, () => 0)(1000)).toBeCloseTo(800);
    expect(createJitter(0.2, () => 0.999999)(1000)).toBeCloseTo(1200, 2);
    expect(createJitter(0.2, () => 0.5)(1000)).toBeCloseTo(1000);
    expect(() => createJitter(1)).toThrow(RangeError);
  });
});

describe('Retry-After', () => {
  const nowMs = Date.parse('2026-11-02T10:00:00Z');

  it('parses delta-seconds and HTTP dates', () => {
    expect(parseRetryAfterMs('120', nowMs)).toBe(120_000);
    expect(parseRetryAfterMs('Mon, 02 Nov 2026 10:01:30 GMT', nowMs)).toBe(90_000);
    expect(parseRetryAfterMs('Mon, 02 Nov 2026 09:00:00 GMT', nowMs)).toBe(0);
    expect(parseRetryAfterMs('soon', nowMs)).toBeNull();
    expect(parseRetryAfterMs(undefined, nowMs)).toBeNull();
  });

  it('clamps into [scheduled, 2 x scheduled]', () => {
    expect(honourRetryAfter(60_000, '90', nowMs)).toBe(90_000);
    expect(honourRetryAfter(60_000, '5', nowMs)).toBe(60_000);
    expect(honourRetryAfter(60_000, '86400', nowMs)).toBe(120_000);
    expect(honourRetryAfter(60_000, ['100', '1'], nowMs)).toBe(100_000);
    expect(honourRetryAfter(60_000, 'garbage', nowMs)).toBe(60_000);
    expect(honourRetryAfter(60_000, undefined, nowMs)).toBe(60_000);
  });
});
