import { describe, expect, it } from 'vitest';
import { tuneHeap } from '../../../src/cli/heap-tuning.js';

describe('the heap growth factor of the long-running roles', () => {
  it("is left to the operator's own flag", () => {
    const pg = (execArgv: string[]) => tuneHeap({ postgres: true, execArgv });
    expect(pg(['--heap-growing-percent=20'])).toBe(false);
    expect(pg(['--max-semi-space-size=4', '--optimize-for-size'])).toBe(false);
    expect(pg(['--heap_growing_percent=10'])).toBe(false);
  });

  it('is set for PostgreSQL when nothing on the command line tunes it, and left to V8 with PGlite inside', () => {
    expect(tuneHeap({ postgres: true, execArgv: ['--max-semi-space-size=4'] })).toBe(true);
    expect(tuneHeap({ postgres: true, execArgv: [] })).toBe(true);
    expect(tuneHeap({ postgres: false, execArgv: [] })).toBe(false);
  });
});
