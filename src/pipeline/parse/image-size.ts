/** Pixel dimensions an image file declares. */
export interface ImageSize {
  width: number;
  height: number;
}

function png(b: Buffer): ImageSize | null {
  // Signature (8), IHDR length (4) and type (4), then width and height.
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function jpeg(b: Buffer): ImageSize | null {
  let p = 2;
  while (p + 4 <= b.length) {
    if (b[p] !== 0xff) return null;
    const marker = b[p + 1];
    // Fill bytes, and markers without a length (RST, SOI, TEM).
    if (marker === 0xff) {
      p++;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd8) || marker === 0x01) {
      p += 2;
      continue;
    }
    const len = b.readUInt16BE(p + 2);
    // Start of frame (any coding) carries the size; C4, C8 and CC are other tables.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (p + 9 > b.length) return null;
      return { width: b.readUInt16BE(p + 7), height: b.readUInt16BE(p + 5) };
    }
    if (marker === 0xd9 || marker === 0xda || len < 2) return null;
    p += 2 + len;
  }
  return null;
}

function gif(b: Buffer): ImageSize | null {
  if (b.length < 13) return null;
  let width = b.readUInt16LE(6);
  let height = b.readUInt16LE(8);
  // The first frame may be larger than the logical screen: take the larger of the two.
  let p = 13 + ((b[10] & 0x80) !== 0 ? 3 * 2 ** ((b[10] & 7) + 1) : 0);
  while (p < b.length) {
    if (b[p] === 0x2c) {
      if (p + 9 > b.length) break;
      width = Math.max(width, b.readUInt16LE(p + 1) + b.readUInt16LE(p + 5));
      height = Math.max(height, b.readUInt16LE(p + 3) + b.readUInt16LE(p + 7));
      break;
    }
    if (b[p] !== 0x21) break;
    // Extension: label, then data sub-blocks until a zero length.
    p += 2;
    while (p < b.length && b[p] !== 0) p += b[p] + 1;
    p++;
  }
  return { width, height };
}

function bmp(b: Buffer): ImageSize | null {
  if (b.length < 26) return null;
  if (b.readUInt32LE(14) === 12) return { width: b.readUInt16LE(18), height: b.readUInt16LE(20) };
  if (b.length < 26 + 4) return null;
  // Height is negative for top-down bitmaps.
  return { width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) };
}

function tiff(b: Buffer): ImageSize | null {
  if (b.length < 8) return null;
  const le = b[0] === 0x49;
  const u16 = (at: number) => (le ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > b.length) return null;
  const count = u16(ifd);
  let width = 0;
  let height = 0;
  for (let i = 0; i < count; i++) {
    const e = ifd + 2 + i * 12;
    if (e + 12 > b.length) return null;
    const tag = u16(e);
    if (tag !== 256 && tag !== 257) continue;
    // SHORT (3) or LONG (4), stored in the entry itself.
    const value = u16(e + 2) === 3 ? u16(e + 8) : u32(e + 8);
    if (tag === 256) width = value;
    else height = value;
  }
  return width > 0 && height > 0 ? { width, height } : null;
}

function webp(b: Buffer): ImageSize | null {
  if (b.length < 30) return null;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return null;
}

const READERS: Record<string, (b: Buffer) => ImageSize | null> = {
  'image/png': png,
  'image/jpeg': jpeg,
  'image/gif': gif,
  'image/bmp': bmp,
  'image/tiff': tiff,
  'image/webp': webp,
};

/**
 * The size an image of a sniffed type declares in its header, read without decoding any pixel;
 * null when the header cannot be read. A decoder allocates what the header declares, so this
 * is what bounds its memory.
 */
export function imageSize(mime: string, b: Buffer): ImageSize | null {
  try {
    return READERS[mime]?.(b) ?? null;
  } catch {
    // A header cut short reads past the end of the buffer.
    return null;
  }
}
