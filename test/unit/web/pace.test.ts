import { describe, expect, it } from 'vitest';
import { advancePace } from '../../../src/web/lib/pace.js';
import { duration } from '../../../src/web/lib/format.js';

describe('the reprocess dialog’s pace and time left', () => {
  it('measures over the last 30 s, so the estimate follows a change of speed', () => {
    const s: { t: number; done: number }[] = [];
    expect(advancePace(s, 0, 1000, 0)).toEqual({ perSecond: 0, left: null });
    // 10 a second for a minute…
    let p = advancePace(s, 0, 1000, 0);
    for (let t = 1_500; t <= 60_000; t += 1_500) p = advancePace(s, t / 100, 1000, t);
    expect(p.perSecond).toBeCloseTo(10, 5);
    expect(p.left).toBeCloseTo(40, 5);
    // …then 2 a second: after 30 s more, only the slow part counts.
    for (let t = 61_500; t <= 90_000; t += 1_500) p = advancePace(s, 600 + (t - 60_000) / 500, 1000, t);
    expect(p.perSecond).toBeGreaterThan(1.9);
    expect(p.perSecond).toBeLessThan(2.5);
    expect(s.length).toBeLessThanOrEqual(22);
    // Done: no time left to show.
    expect(advancePace(s, 1000, 1000, 120_000).left).toBeNull();
  });

  it('writes durations people read at a glance', () => {
    expect(duration(42)).toBe('42 s');
    expect(duration(200)).toBe('3 min 20 s');
    expect(duration(4000)).toBe('1 h 06 min');
  });
});
