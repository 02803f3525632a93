/**
 * The EXIF orientation (1–8) a JPEG declares in its APP1 segment, or null when it has none.
 * Cameras and phones store pixels as the sensor saw them and record the turn here; browsers
 * apply it when they show the image, OCR engines do not, so a value other than 1 means the
 * image must be turned upright before OCR (and word boxes then refer to the upright picture).
 * Reads headers only, bounded by the buffer, never throws.
 */
export function jpegOrientation(b: Buffer): number | null {
  try {
    if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
    let p = 2;
    while (p + 4 <= b.length) {
      if (b[p] !== 0xff) return null;
      const marker = b[p + 1];
      if (marker === 0xff) {
        p++;
        continue;
      }
      // Start of scan or of frame: EXIF comes before both.
      if (
        marker === 0xda ||
        (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      )
        return null;
      const len = b.readUInt16BE(p + 2);
      if (len < 2) return null;
      if (marker === 0xe1 && b.toString('latin1', p + 4, p + 10) === 'Exif\0\0') {
        return tiffOrientation(b.subarray(p + 10, Math.min(b.length, p + 2 + len)));
      }
      p += 2 + len;
    }
    return null;
  } catch {
    return null;
  }
}

/** Tag 0x0112 of the first IFD of a TIFF structure (the EXIF payload). */
function tiffOrientation(t: Buffer): number | null {
  if (t.length < 8) return null;
  const order = t.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const le = order === 'II';
  const u16 = (at: number) => (le ? t.readUInt16LE(at) : t.readUInt16BE(at));
  const u32 = (at: number) => (le ? t.readUInt32LE(at) : t.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > t.length) return null;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const e = ifd + 2 + i * 12;
    if (e + 12 > t.length) return null;
    if (u16(e) !== 0x0112) continue;
    const v = u16(e + 8);
    return v >= 1 && v <= 8 ? v : null;
  }
  return null;
}
