import { describe, expect, it } from 'vitest';
import { lazy } from '../../../src/lib/lazy.js';

describe('lazy', () => {
  it('loads once on the first call and shares the result, and tries again after a failed load', async () => {
    let calls = 0;
    const load = lazy(async () => {
      calls++;
      if (calls === 1) throw new Error('not there yet');
      return { n: calls };
    });
    expect(calls).toBe(0);
    await expect(load()).rejects.toThrow('not there yet');
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(calls).toBe(2);
  });
});
