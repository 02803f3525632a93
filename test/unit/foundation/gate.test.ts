import { describe, expect, it } from 'vitest';
import { gate } from '../../../src/lib/gate.js';

describe('gate', () => {
  it('runs at most `limit` calls at once, the rest in order, and frees the slot on failure', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const release: Array<() => void> = [];
    const g = gate(2, async (n: number) => {
      started.push(n);
      running++;
      most = Math.max(most, running);
      await new Promise<void>((r) => release.push(r));
      running--;
      if (n === 1) throw new Error('one fails');
      return n * 10;
    });
    const calls = [1, 2, 3, 4, 5].map((n) => g(n));
    const settled = Promise.allSettled(calls);
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 5));
      release.shift()?.();
    }
    const results = await settled;
    expect(most).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(results[0].status).toBe('rejected');
    expect(results.slice(1).map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual([20, 30, 40, 50]);
  });
});
