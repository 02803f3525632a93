// DOCX decompression bombs. Bounds asserted (stated in the README): with a parser memory limit
// of 384 MB the test process grows by less than 100 MB, the parser process stays under its
// limit plus 64 MB (the 50 ms watch can see it late), and a normal document parses afterwards
// in a fresh process. Before the bounded unzip, the first bomb took the process to 2.2 GB.
import { afterAll, describe, expect, it } from 'vitest';
import { createPdfEngine, parseDocument, ParseError } from '../../src/pipeline/parse/index.js';
import { makeDocxBomb } from '../helpers/bombs.js';
import { currentMemory, memoryTrackingAvailable, trackMemory } from '../helpers/memory.js';
import { makeDocx } from '../unit/parse/fixtures/zip.js';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const LIMIT_MB = 384;
const engine = createPdfEngine({ maxMemoryMb: LIMIT_MB, maxInflatedBytes: 16 * MiB });
afterAll(() => engine.close());

async function parseError(p: Promise<unknown>): Promise<ParseError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ParseError);
  return err as ParseError;
}

const normalDocx = () => makeDocx(['Invoice 2026-042', 'Total due: 120.00 EUR'], { deflate: true });

describe('DOCX bombs', () => {
  it('fails a 2 MB DOCX that inflates to 2 GiB while declaring 1 KB as TOO_LARGE, within bounded memory', async () => {
    const bomb = makeDocxBomb(2 * GiB);
    expect(bomb.length).toBeLessThan(3 * MiB);
    // Warm: the parser process is running before memory is measured.
    await parseDocument({ bytes: normalDocx(), maxPages: 5 }, { pdf: engine });
    const mem = trackMemory();
    const err = await parseError(parseDocument({ bytes: bomb, maxPages: 5 }, { pdf: engine }));
    const peaks = mem.stop();
    expect(err.code).toBe('TOO_LARGE');
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/inflates to more than 16777216 bytes/);
    if (memoryTrackingAvailable) {
      expect(peaks.selfPeakMb - peaks.selfStartMb).toBeLessThan(100);
      expect(peaks.childPeakMb).toBeLessThan(LIMIT_MB + 64);
    }
    const r = await parseDocument({ bytes: normalDocx(), maxPages: 5 }, { pdf: engine });
    expect(r.text).toMatch(/^Invoice 2026-042\s+Total due: 120\.00 EUR$/);
  });

  it('stops the same bomb at the inflate budget when converting in the calling process', async () => {
    const before = currentMemory().selfMb;
    const mem = trackMemory();
    const err = await parseError(parseDocument({ bytes: makeDocxBomb(2 * GiB), maxPages: 5 }, {}));
    const peaks = mem.stop();
    expect(err.code).toBe('TOO_LARGE');
    // The default budget is 64 MiB: inflation stops there, whatever the file declares.
    if (memoryTrackingAvailable) expect(peaks.selfPeakMb - before).toBeLessThan(100 + 64);
  });

  it('fails a DOCX whose XML fits the inflate budget but not the parser memory as TOO_LARGE', async () => {
    // 12 MiB of paragraphs: under the 16 MiB budget, but mammoth's XML tree needs about 75
    // bytes per byte of such XML, more than twice the 384 MB limit.
    const dense = makeDocxBomb(12 * MiB, { paragraphs: true });
    const mem = trackMemory();
    const err = await parseError(parseDocument({ bytes: dense, maxPages: 5 }, { pdf: engine }));
    const peaks = mem.stop();
    expect(err.code).toBe('TOO_LARGE');
    expect(err.message).toMatch(/384 MB/);
    if (memoryTrackingAvailable) {
      expect(peaks.selfPeakMb - peaks.selfStartMb).toBeLessThan(100);
      expect(peaks.childPeakMb).toBeLessThan(LIMIT_MB + 64);
    }
    // A smaller document of the same shape is read in full.
    const small = await parseDocument({ bytes: makeDocxBomb(MiB, { paragraphs: true }), maxPages: 5 }, { pdf: engine });
    expect(small.text.split('\n').filter(Boolean)).toHaveLength(MiB / 64);
  });
});
