import { describe, expect, it } from 'vitest';
import { tuneHeap } from '../../../src/cli/heap-tuning.js';

/** Runs tuneHeap with a recording setter: the flags it would give V8. */
function flagsFor(postgres: boolean, execArgv: string[]): string[] {
  const set: string[] = [];
  tuneHeap({ postgres, execArgv, setFlags: (f) => set.push(f) });
  return set;
}

describe('the heap growth factor of the long-running roles', () => {
  it("is left to the operator's own flag", () => {
    expect(flagsFor(true, ['--heap-growing-percent=20'])).toEqual([]);
    expect(flagsFor(true, ['--max-semi-space-size=4', '--optimize-for-size'])).toEqual([]);
    expect(flagsFor(true, ['--heap_growing_percent=10'])).toEqual([]);
  });

  it('is set for PostgreSQL when nothing on the command line tunes it, and left to V8 with PGlite inside', () => {
    expect(flagsFor(true, ['--max-semi-space-size=4'])).toEqual(['--heap-growing-percent=50']);
    expect(flagsFor(true, [])).toEqual(['--heap-growing-percent=50']);
    expect(flagsFor(false, [])).toEqual([]);
  });
});
