// PDF decompression bombs. Bounds asserted (stated in the README): with a parser memory limit
// of 384 MB the test process grows by less than 100 MB while pdf.js inflates the bomb, the
// parser process stays under its limit plus 64 MB (the 50 ms watch can see it late), and the
// next PDF is read by a fresh process. Before parsing moved to limited processes, the first
// bomb took the process to 4.2 GB and failed only at the 60 s page timeout.
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createPdfEngine, parseDocument, ParseError } from '../../src/pipeline/parse/index.js';
import { makePdfFlateBomb } from '../helpers/bombs.js';
import { memoryTrackingAvailable, trackMemory } from '../helpers/memory.js';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const LIMIT_MB = 384;
const engine = createPdfEngine({ maxMemoryMb: LIMIT_MB });
afterAll(() => engine.close());

describe('PDF bombs', () => {
  it(
    'fails a 2 MB PDF whose content stream inflates to 2 GiB as TOO_LARGE, within bounded memory',
    { timeout: 120_000 },
    async () => {
      const bomb = makePdfFlateBomb(2 * GiB);
      expect(bomb.length).toBeLessThan(3 * MiB);
      const normal = await makeTextPdf({ pages: [['Invoice 2026-043'], ['Total 10.00']] });
      await parseDocument({ bytes: normal, maxPages: 5 }, { pdf: engine });
      const mem = trackMemory();
      const err = await parseDocument({ bytes: bomb, maxPages: 5 }, { pdf: engine }).then(
        () => null,
        (e: unknown) => e,
      );
      const peaks = mem.stop();
      expect(err).toBeInstanceOf(ParseError);
      expect(err).toMatchObject({ code: 'TOO_LARGE', permanent: true });
      expect((err as Error).message).toMatch(/more than 384 MB of memory/);
      if (memoryTrackingAvailable) {
        expect(peaks.selfPeakMb - peaks.selfStartMb).toBeLessThan(100);
        expect(peaks.childPeakMb).toBeLessThan(LIMIT_MB + 64);
      }
      const r = await parseDocument({ bytes: normal, maxPages: 5 }, { pdf: engine });
      expect(r.text).toBe('Invoice 2026-043\n\f\nTotal 10.00');
    },
  );

  it('reads a small stream built the same way (the bomb is a valid PDF, refused only for its size)', async () => {
    const r = await parseDocument({ bytes: makePdfFlateBomb(4 * MiB), maxPages: 5 }, { pdf: engine });
    expect(r.text).toBe('hello from the bomb');
  });

  // Why the parser is a process: a worker thread's resourceLimits bound the V8 heap only.
  it('a worker thread with a 64 MB heap limit still allocates 512 MB of ArrayBuffers', async () => {
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const kept = [];
       for (let i = 0; i < 32; i++) kept.push(new Uint8Array(16 * 1024 * 1024).fill(1));
       parentPort.postMessage(kept.reduce((n, a) => n + a.length, 0));`,
      { eval: true, resourceLimits: { maxOldGenerationSizeMb: 64 } },
    );
    try {
      const allocated = await new Promise<number>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(allocated).toBe(512 * MiB);
    } finally {
      await worker.terminate();
    }
  });
});
