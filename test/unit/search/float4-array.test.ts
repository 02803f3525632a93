// The sign-bit prefilter scores its candidates from PostgreSQL's binary array form (array_send);
// the bytes below are what PostgreSQL 15 sent for '{1.5,-2}'::real[].
import { describe, expect, it } from 'vitest';
import { dotFloat4Array, float4Values, signBits } from '../../../src/modules/search/search.repository.js';

const sent = Buffer.from('0000000100000000000002bc0000000200000001000000043fc0000000000004c0000000', 'hex');

describe('binary float4 arrays', () => {
  it('gives the dot product of a real[] with the query', () => {
    expect(dotFloat4Array(sent, [2, 0.5])).toBe(2);
    expect(dotFloat4Array(sent.subarray(0), [1, 1])).toBe(-0.5);
    expect([...float4Values(sent)!]).toEqual([1.5, -2]);
  });

  it('refuses another length, another element type, a null element or a cut-off array', () => {
    expect(dotFloat4Array(sent, [1, 1, 1])).toBeNull();
    const int4 = Buffer.from(sent);
    int4.writeInt32BE(23, 8);
    expect(dotFloat4Array(int4, [1, 1])).toBeNull();
    const withNull = Buffer.from(sent);
    withNull.writeInt32BE(1, 4);
    expect(dotFloat4Array(withNull, [1, 1])).toBeNull();
    expect(dotFloat4Array(sent.subarray(0, 30), [1, 1])).toBeNull();
  });

  it('writes one bit per component, set where it is positive', () => {
    expect(signBits([0.1, -0.2, 0, 3])).toBe('1001');
  });
});
