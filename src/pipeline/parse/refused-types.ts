// Files no stage can ever turn into text: executables and archives. Intake refuses them (415)
// instead of storing them and failing them at the parse stage. Judged from the bytes only.
import { looksLikeText } from './text.js';
import { isZip } from './zip.js';

/** What the parse stage reads, in words (the 415 message names them). */
export const ACCEPTED_TYPES_TEXT =
  'PDF (application/pdf), images (PNG, JPEG, GIF, TIFF, WebP, BMP), DOCX, e-mail (.eml, message/rfc822), HTML, CSV, JSON and plain text';

const at = (b: Buffer, bytes: number[], offset = 0) =>
  b.length >= offset + bytes.length && bytes.every((x, i) => b[offset + i] === x);

/** A Windows/DOS executable: "MZ" with a PE header where e_lfanew points, or "MZ" on binary bytes. */
function isPe(b: Buffer): boolean {
  if (!at(b, [0x4d, 0x5a]) || b.length < 64) return false;
  const peAt = b.readUInt32LE(0x3c);
  if (peAt + 4 <= b.length) return at(b, [0x50, 0x45, 0x00, 0x00], peAt);
  return !looksLikeText(b.subarray(0, 4096));
}

/**
 * An OOXML package (DOCX, XLSX, PPTX) always holds `[Content_Types].xml`, usually as its first
 * entry; the name appears in plain bytes in the head. Any other zip is an archive.
 */
function isPlainZip(b: Buffer): boolean {
  return isZip(b) && b.indexOf('[Content_Types].xml', 0, 'latin1') < 0;
}

/**
 * The kind of never-processable file `head` starts (at least the first 64 KiB, or the whole
 * file), e.g. "an ELF executable", or null when it may be processable.
 */
export function unprocessableKind(head: Buffer): string | null {
  if (at(head, [0x7f, 0x45, 0x4c, 0x46])) return 'an ELF executable';
  if (isPe(head)) return 'a Windows executable (PE/MZ)';
  for (const magic of [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
    [0xca, 0xfe, 0xba, 0xbe],
  ]) {
    if (at(head, magic)) return 'a Mach-O executable';
  }
  if (isPlainZip(head)) return 'a zip archive';
  if (at(head, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])) return 'a RAR archive';
  if (at(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return 'a 7z archive';
  if (at(head, [0x1f, 0x8b])) return 'a gzip archive';
  if (
    at(head, [0x42, 0x5a, 0x68]) &&
    head[3] >= 0x31 &&
    head[3] <= 0x39 &&
    at(head, [0x31, 0x41, 0x59, 0x26, 0x53, 0x59], 4)
  )
    return 'a bzip2 archive';
  if (at(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return 'an xz archive';
  if (at(head, [0x28, 0xb5, 0x2f, 0xfd])) return 'a zstd archive';
  if (head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'a tar archive';
  return null;
}
