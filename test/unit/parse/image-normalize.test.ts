// TIFFs and EXIF-turned JPEGs are turned upright into PNG before OCR, in a memory-limited
// process of their own (libvips through sharp), so OCR reads upright text and the dashboard can
// show what was read. The orientation is read from the JPEG's headers without decoding it.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegOrientation } from '../../../src/pipeline/parse/image-orientation.js';
import { needsNormalizing, normalizeImage } from '../../../src/pipeline/parse/image-normalize.js';

const upright = () =>
  sharp({ create: { width: 300, height: 120, channels: 3, background: '#ffffff' } })
    // A dark block in the top-left corner, to tell which way the picture came out.
    .composite([{ input: { create: { width: 60, height: 30, channels: 3, background: '#000000' } }, left: 0, top: 0 }])
    .png()
    .toBuffer();

/** The upright picture stored turned, with the EXIF orientation that turns it back. */
const turned = async (orientation: number, angle: number) =>
  sharp(await upright())
    .rotate(angle)
    .jpeg()
    .withMetadata({ orientation })
    .toBuffer();

const darkCorner = async (png: Buffer) => {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return data[0] < 64 && data[info.width - 1] > 192;
};

describe('EXIF orientation of a JPEG', () => {
  it('reads the tag from the APP1 segment, and nothing from images without one', async () => {
    expect(jpegOrientation(await turned(6, 270))).toBe(6);
    expect(jpegOrientation(await turned(3, 180))).toBe(3);
    expect(jpegOrientation(await turned(8, 90))).toBe(8);
    expect(
      jpegOrientation(
        await sharp(await upright())
          .jpeg()
          .toBuffer(),
      ),
    ).toBeNull();
    expect(jpegOrientation(await upright())).toBeNull();
  });

  it('never throws on a header cut short or garbage', async () => {
    const jpg = await turned(6, 270);
    for (let n = 0; n < 200; n += 7) expect(() => jpegOrientation(jpg.subarray(0, n))).not.toThrow();
    expect(jpegOrientation(Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff, 0x45, 0x78]))).toBeNull();
  });

  it('asks for normalising TIFFs and turned JPEGs only', async () => {
    expect(needsNormalizing('image/tiff', Buffer.alloc(8))).toBe(true);
    expect(needsNormalizing('image/jpeg', await turned(6, 270))).toBe(true);
    expect(needsNormalizing('image/jpeg', await turned(1, 0))).toBe(false);
    expect(needsNormalizing('image/png', await upright())).toBe(false);
  });
});

describe('normalizeImage', () => {
  it('turns a JPEG upright by its orientation', { timeout: 30_000 }, async () => {
    for (const [orientation, angle] of [
      [6, 270],
      [3, 180],
      [8, 90],
    ]) {
      const n = await normalizeImage(await turned(orientation, angle), { maxPixels: 1_000_000 });
      expect([n.width, n.height]).toEqual([300, 120]);
      expect(n.png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(await darkCorner(n.png)).toBe(true);
    }
  });

  it('keeps the first page of a TIFF, scaled down to maxSide', { timeout: 30_000 }, async () => {
    const tif = await sharp(await upright())
      .tiff({ compression: 'lzw' })
      .toBuffer();
    const full = await normalizeImage(tif, { maxPixels: 1_000_000 });
    expect([full.width, full.height]).toEqual([300, 120]);
    const small = await normalizeImage(tif, { maxPixels: 1_000_000, maxSide: 150 });
    expect([small.width, small.height]).toEqual([150, 60]);
  });

  it(
    'refuses images over the pixel limit before decoding them, and garbage as corrupt',
    { timeout: 30_000 },
    async () => {
      const tif = await sharp(await upright())
        .tiff()
        .toBuffer();
      await expect(normalizeImage(tif, { maxPixels: 10_000 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
      await expect(normalizeImage(Buffer.from('II*\0 not really a tiff'), { maxPixels: 10_000 })).rejects.toMatchObject(
        {
          code: 'CORRUPT',
        },
      );
    },
  );
});
