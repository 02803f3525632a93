// Hostile real-world files (../shared/corpora, evaluation data kept outside the repository):
// every one must end as text or as a ParseError with a code, within a time limit, read by the
// memory-limited parser processes: the test process grows by less than 150 MB and no parser
// process passes its 512 MB limit (plus 64 MB for the 50 ms watch).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createPdfEngine,
  parseDocument,
  ParseError,
  type Ocr,
  type ParseErrorCode,
} from '../../../src/pipeline/parse/index.js';
import { memoryTrackingAvailable, trackMemory, type MemoryPeaks } from '../../helpers/memory.js';

const ROOT = path.resolve(import.meta.dirname, '../../../../shared/corpora/robustness');
const PER_FILE_MS = 45_000;
const present = existsSync(ROOT);

if (!present) console.warn(`corpus tests skipped: ${ROOT} is not present`);

type Outcome =
  { ok: true; chars: number; ocrPages: number } | { ok: false; code: ParseErrorCode } | { ok: false; other: string };

// A smaller heap than the service's default, so a runaway file dies in a second or two
// instead of after filling a gigabyte; still ample for every legitimate file here.
const LIMIT_MB = 512;
const pdf = createPdfEngine({ maxHeapMb: 128, maxMemoryMb: LIMIT_MB, pageTimeoutMs: 30_000 });
afterAll(() => pdf.close());

function expectBoundedMemory(peaks: MemoryPeaks): void {
  if (!memoryTrackingAvailable) return;
  expect(peaks.selfPeakMb - peaks.selfStartMb).toBeLessThan(150);
  expect(peaks.childPeakMb).toBeLessThan(LIMIT_MB + 64);
}

/** Stands in for tesseract: image-only pages must reach OCR, and the result must flow back. */
const stubOcr: Ocr = {
  async recognize() {
    return { text: 'stub ocr text', confidence: 0.5 };
  },
  async close() {},
};

async function run(file: string): Promise<Outcome> {
  const bytes = readFileSync(file);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${PER_FILE_MS} ms`)), PER_FILE_MS);
  });
  try {
    // Low OCR resolution: the stub does not read the pixels, so rendering cost is all that changes.
    const parsing = parseDocument(
      { bytes, filename: path.basename(file), maxPages: 500 },
      { ocr: stubOcr, pdf },
      { ocrDpi: 72 },
    );
    const r = await Promise.race([parsing, deadline]);
    return { ok: true, chars: r.text.length, ocrPages: r.ocrPages };
  } catch (err) {
    if (err instanceof ParseError) return { ok: false, code: err.code };
    return { ok: false, other: `${(err as Error)?.name}: ${(err as Error)?.message}` };
  } finally {
    clearTimeout(timer);
  }
}

function files(sub: string): string[] {
  const dir = path.join(ROOT, sub);
  return existsSync(dir)
    ? readdirSync(dir)
        .sort()
        .map((f) => path.join(dir, f))
    : [];
}

describe.skipIf(!present)('robustness corpus', () => {
  it('turns every PDF into text or a ParseError with a code', { timeout: 300_000 }, async () => {
    const outcomes: Record<string, Outcome> = {};
    const mem = trackMemory();
    for (const file of files('pdf')) outcomes[path.basename(file)] = await run(file);
    expectBoundedMemory(mem.stop());
    console.log(
      Object.entries(outcomes)
        .map(([f, o]) => `${f}: ${JSON.stringify(o)}`)
        .join('\n'),
    );
    expect(Object.keys(outcomes).length).toBeGreaterThan(0);
    for (const [name, o] of Object.entries(outcomes)) {
      expect('other' in o ? o.other : 'ok', name).toBe('ok');
      if (o.ok) expect(o.chars, name).toBeGreaterThan(0);
    }
    const expectCode = (name: string, code: ParseErrorCode): void => {
      if (outcomes[name]) expect(outcomes[name], name).toEqual({ ok: false, code });
    };
    // Files that need a user password nobody gave us.
    expectCode('pdfjs__issue6010_1.pdf', 'ENCRYPTED');
    expectCode('pdfjs__issue3371.pdf', 'ENCRYPTED');
    expectCode('pypdf-samples__libreoffice-writer-password.pdf', 'ENCRYPTED');
    // Encrypted with an empty user password: readable, so never reported as ENCRYPTED.
    for (const name of ['pdfjs__bug900822.pdf', 'pdfjs__empty_protected.pdf', 'pdfjs__issue9972-1.pdf']) {
      if (outcomes[name]) expect(outcomes[name], name).not.toEqual({ ok: false, code: 'ENCRYPTED' });
    }
    // Image-only page: must reach OCR.
    const scan = outcomes['pypdf-samples__imagemagick-CCITTFaxDecode.pdf'];
    if (scan) expect(scan).toMatchObject({ ok: true, ocrPages: 1 });
  });

  it('turns every e-mail file into text or a ParseError with a code', { timeout: 60_000 }, async () => {
    const mem = trackMemory();
    for (const file of files('eml')) {
      const o = await run(file);
      expect('other' in o ? o.other : 'ok', path.basename(file)).toBe('ok');
    }
    expectBoundedMemory(mem.stop());
  });
});
