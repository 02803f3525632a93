import { describe, expect, it } from 'vitest';
import type { Queues } from '../../../src/jobs/queues.js';
import { createPauseCheck } from '../../../workers/pause-check.js';

/** Queues whose paused flags are read from `flags`, counting the reads. */
function fakeQueues(flags: Record<string, boolean | Error>) {
  const reads: string[] = [];
  const queues = {
    get: (name: string) => ({
      isPaused: async () => {
        reads.push(name);
        const f = flags[name];
        if (f instanceof Error) throw f;
        return f ?? false;
      },
    }),
  } as unknown as Pick<Queues, 'get'>;
  return { queues, reads };
}

describe('the paused flag a continuation reads', () => {
  it('is read once per stage within the time it is kept, and again after', async () => {
    const { queues, reads } = fakeQueues({ classify: false, extract: true });
    let clock = 0;
    const isPaused = createPauseCheck(queues, { ttlMs: 1_000, now: () => clock });
    expect(await isPaused('classify')).toBe(false);
    expect(await isPaused('extract')).toBe(true);
    clock = 999;
    expect(await Promise.all([isPaused('classify'), isPaused('classify')])).toEqual([false, false]);
    expect(reads).toEqual(['classify', 'extract']);
    clock = 1_000;
    expect(await isPaused('classify')).toBe(false);
    expect(reads).toEqual(['classify', 'extract', 'classify']);
  });

  it('sees a pause once the kept answer has expired', async () => {
    const flags: Record<string, boolean> = { embed: false };
    const { queues } = fakeQueues(flags);
    let clock = 0;
    const isPaused = createPauseCheck(queues, { ttlMs: 1_000, now: () => clock });
    expect(await isPaused('embed')).toBe(false);
    flags.embed = true;
    clock = 1_500;
    expect(await isPaused('embed')).toBe(true);
  });

  it('keeps a newer answer when an older read fails after it', async () => {
    let fail!: (err: Error) => void;
    let reads = 0;
    const queues = {
      get: () => ({
        isPaused: () => (++reads === 1 ? new Promise<boolean>((_, reject) => (fail = reject)) : Promise.resolve(false)),
      }),
    } as unknown as Pick<Queues, 'get'>;
    let clock = 0;
    const isPaused = createPauseCheck(queues, { ttlMs: 1_000, now: () => clock });
    const slow = isPaused('embed');
    clock = 1_500;
    expect(await isPaused('embed')).toBe(false);
    fail(new Error('timed out'));
    expect(await slow).toBe(true);
    expect(await isPaused('embed')).toBe(false);
    expect(reads).toBe(2);
  });

  it('takes a failed read as paused and does not keep it', async () => {
    const flags: Record<string, boolean | Error> = { embed: new Error('connection lost') };
    const { queues, reads } = fakeQueues(flags);
    const isPaused = createPauseCheck(queues, { ttlMs: 1_000, now: () => 0 });
    expect(await isPaused('embed')).toBe(true);
    flags.embed = false;
    expect(await isPaused('embed')).toBe(false);
    expect(reads).toEqual(['embed', 'embed']);
  });
});
