// Pixel bombs: an image decoder allocates what the header declares, so a 128-byte PNG that
// declares 50000×50000 would ask OCR for gigabytes. Images are measured from their headers and
// refused as TOO_LARGE before any decoder sees them; PDF pages are rendered for OCR at a
// bounded pixel count whatever size the page declares.
import { afterAll, describe, expect, it } from 'vitest';
import { createPdfEngine, parseDocument, ParseError, type Ocr } from '../../src/pipeline/parse/index.js';
import { imageSize } from '../../src/pipeline/parse/image-size.js';
import { makePngDeclaring } from '../helpers/bombs.js';
import { memoryTrackingAvailable, trackMemory } from '../helpers/memory.js';
import { makeImagePdf, makePng } from '../helpers/pdf-fixtures.js';

/** Records what reaches OCR; a real engine would try to decode it. */
function recordingOcr(): Ocr & { images: Buffer[] } {
  const images: Buffer[] = [];
  return {
    images,
    async recognize(image) {
      images.push(image);
      return { text: 'recognised words', confidence: 0.9 };
    },
    async close() {},
  };
}

function gifDeclaring(width: number, height: number): Buffer {
  const b = Buffer.alloc(13 + 10 + 1);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(16, 6);
  b.writeUInt16LE(16, 8);
  b[13] = 0x2c;
  b.writeUInt16LE(width, 13 + 5);
  b.writeUInt16LE(height, 13 + 7);
  return b;
}

function bmpDeclaring(width: number, height: number): Buffer {
  const b = Buffer.alloc(54);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  return b;
}

const engine = createPdfEngine({ maxMemoryMb: 384 });
afterAll(() => engine.close());

describe('image pixel bombs', () => {
  it('refuses images declaring more pixels than the limit before OCR decodes them', async () => {
    const ocr = recordingOcr();
    const bombs: [string, Buffer][] = [
      ['png 50000x50000', makePngDeclaring(50_000, 50_000)],
      ['gif 65535x65535', gifDeclaring(65_535, 65_535)],
      ['bmp 100000x100000', bmpDeclaring(100_000, -100_000)],
    ];
    for (const [name, bytes] of bombs) {
      expect(bytes.length, name).toBeLessThan(1024);
      const err = await parseDocument({ bytes, maxPages: 1 }, { ocr }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(ParseError);
      expect(err, name).toMatchObject({ code: 'TOO_LARGE', permanent: true });
      expect((err as Error).message, name).toMatch(/pixels; the limit is 50000000/);
    }
    expect(ocr.images).toHaveLength(0);
  });

  it('passes images within the limit to OCR, and the limit is a setting', async () => {
    const ocr = recordingOcr();
    const png = makePng(400, 300);
    const r = await parseDocument({ bytes: png, maxPages: 1 }, { ocr });
    expect(r).toMatchObject({ text: 'recognised words', ocrPages: 1 });
    const err = await parseDocument({ bytes: png, maxPages: 1 }, { ocr }, { maxImagePixels: 100_000 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'TOO_LARGE' });
    expect(ocr.images).toHaveLength(1);
  });

  it('fails an image whose header cannot be read as CORRUPT without OCR', async () => {
    const ocr = recordingOcr();
    const err = await parseDocument({ bytes: makePng(10, 10).subarray(0, 20), maxPages: 1 }, { ocr }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'CORRUPT' });
    expect(ocr.images).toHaveLength(0);
  });

  it(
    'renders a scanned page that declares 200 inches square at a bounded size for OCR',
    { timeout: 60_000 },
    async () => {
      // 14400 pt (the largest page PDF allows) at the default 200 dpi would be 40000×40000.
      const pdf = await makeImagePdf([makePng(64, 64, (x, y) => ((x ^ y) & 8 ? 0 : 255))], {
        pageSize: [14_400, 14_400],
      });
      const ocr = recordingOcr();
      const mem = trackMemory();
      const r = await parseDocument({ bytes: pdf, maxPages: 1 }, { ocr, pdf: engine });
      const peaks = mem.stop();
      expect(r.ocrPages).toBe(1);
      const size = imageSize('image/png', ocr.images[0]);
      expect(size!.width * size!.height).toBeLessThanOrEqual(25_000_000);
      expect(size!.width).toBeGreaterThan(4000);
      if (memoryTrackingAvailable) expect(peaks.childPeakMb).toBeLessThan(384 + 64);
    },
  );
});
