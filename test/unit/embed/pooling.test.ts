import { describe, expect, it } from 'vitest';
import { meanPoolNormalized } from '../../../src/pipeline/embed/pooling.js';

describe('meanPoolNormalized', () => {
  it('averages only the tokens the mask keeps, per text, then scales to unit length', () => {
    // Two texts, three token slots, two dimensions; the second text's last slot is padding.
    const hidden = [1, 0, 3, 0, 5, 0, /* text 2 */ 0, 2, 0, 4, 100, 100];
    const mask = [1n, 1n, 1n, 1n, 1n, 0n];
    const [a, b] = meanPoolNormalized(hidden, [2, 3, 2], mask);
    expect(a[0]).toBeCloseTo(1, 6);
    expect(a[1]).toBeCloseTo(0, 6);
    // Mean of (0,2) and (0,4) is (0,3): the padded (100,100) does not count.
    expect(b[0]).toBeCloseTo(0, 6);
    expect(b[1]).toBeCloseTo(1, 6);
  });

  it('keeps direction: mean (3,4) becomes (0.6, 0.8)', () => {
    const [v] = meanPoolNormalized([2, 4, 4, 4], [1, 2, 2], [1, 1]);
    expect(v[0]).toBeCloseTo(0.6, 6);
    expect(v[1]).toBeCloseTo(0.8, 6);
  });

  it('gives a zero vector, not NaN, for a text with no tokens', () => {
    const [v] = meanPoolNormalized([1, 2], [1, 1, 2], [0n]);
    expect(v).toEqual([0, 0]);
  });

  it('refuses data that does not match the stated shape', () => {
    expect(() => meanPoolNormalized([1, 2, 3], [1, 2, 2], [1, 1])).toThrow('unexpected model output shape');
    expect(() => meanPoolNormalized([1, 2, 3, 4], [1, 2, 2], [1])).toThrow('unexpected model output shape');
  });
});
