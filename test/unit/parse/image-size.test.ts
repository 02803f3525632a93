import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { imageSize } from '../../../src/pipeline/parse/image-size.js';
import { makePngDeclaring } from '../../helpers/bombs.js';
import { makePng } from '../../helpers/pdf-fixtures.js';

// pdf.js's canvas binding (a dependency of pdfjs-dist) encodes real JPEG and WebP files.
const { createCanvas } = createRequire(import.meta.url)('@napi-rs/canvas') as {
  createCanvas(w: number, h: number): { encode(format: string, quality?: number): Promise<Buffer> };
};

function gif(screen: [number, number], frame: [number, number, number, number]): Buffer {
  const b = Buffer.alloc(13 + 6 + 8 + 10);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(screen[0], 6);
  b.writeUInt16LE(screen[1], 8);
  b[10] = 0x80; // global colour table of 2 entries
  let p = 13 + 6;
  // A graphic control extension before the frame, as most files have.
  b.set([0x21, 0xf9, 0x04, 0, 0, 0, 0, 0], p);
  p += 8;
  b[p] = 0x2c;
  frame.forEach((v, i) => b.writeUInt16LE(v, p + 1 + 2 * i));
  return b;
}

function bmp(width: number, height: number): Buffer {
  const b = Buffer.alloc(54);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  return b;
}

function tiff(width: number, height: number, le: boolean): Buffer {
  const b = Buffer.alloc(8 + 2 + 3 * 12 + 4);
  const u16 = (v: number, at: number) => (le ? b.writeUInt16LE(v, at) : b.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (le ? b.writeUInt32LE(v, at) : b.writeUInt32BE(v, at));
  b.write(le ? 'II' : 'MM', 0, 'latin1');
  u16(42, 2);
  u32(8, 4);
  u16(3, 8);
  const entry = (i: number, tag: number, type: number, value: number) => {
    const e = 10 + i * 12;
    u16(tag, e);
    u16(type, e + 2);
    u32(1, e + 4);
    if (type === 3) u16(value, e + 8);
    else u32(value, e + 8);
  };
  entry(0, 254, 4, 0);
  entry(1, 256, 3, width);
  entry(2, 257, 4, height);
  return b;
}

describe('imageSize', () => {
  it('reads PNG headers without decoding', () => {
    expect(imageSize('image/png', makePng(7, 3))).toEqual({ width: 7, height: 3 });
    expect(imageSize('image/png', makePngDeclaring(50_000, 50_000))).toEqual({ width: 50_000, height: 50_000 });
  });

  it('reads JPEG and WebP files as an encoder writes them', async () => {
    const canvas = createCanvas(37, 21);
    expect(imageSize('image/jpeg', await canvas.encode('jpeg', 80))).toEqual({ width: 37, height: 21 });
    expect(imageSize('image/webp', await canvas.encode('webp', 80))).toEqual({ width: 37, height: 21 });
  });

  it('reads GIF, BMP and TIFF headers', () => {
    expect(imageSize('image/gif', gif([10, 20], [0, 0, 10, 20]))).toEqual({ width: 10, height: 20 });
    // A frame larger than the logical screen is what a decoder allocates.
    expect(imageSize('image/gif', gif([10, 20], [5, 5, 3000, 4000]))).toEqual({ width: 3005, height: 4005 });
    expect(imageSize('image/bmp', bmp(640, -480))).toEqual({ width: 640, height: 480 });
    expect(imageSize('image/tiff', tiff(2480, 3508, true))).toEqual({ width: 2480, height: 3508 });
    expect(imageSize('image/tiff', tiff(60_000, 90_000, false))).toEqual({ width: 60_000, height: 90_000 });
  });

  it('returns null for headers it cannot read', () => {
    expect(imageSize('image/png', makePng(7, 3).subarray(0, 20))).toBeNull();
    expect(imageSize('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a]))).toBeNull();
    expect(imageSize('image/tiff', Buffer.from([0x49, 0x49, 0x2a, 0, 0xff, 0xff, 0, 0]))).toBeNull();
    expect(imageSize('image/x-unknown', makePng(7, 3))).toBeNull();
  });
});
