/** One entry of a zip archive's directory (no data is inflated). */
export interface ZipEntry {
  name: string;
  compressedSize: number;
  /** As declared by the archive; a hostile file can lie, so treat it as a hint. */
  uncompressedSize: number;
}

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const EOCD_SIG = 0x06054b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;

export function isZip(buf: Buffer): boolean {
  // An empty archive is only an end-of-central-directory record.
  return buf.length >= 4 && (buf.readUInt32LE(0) === LOCAL_SIG || buf.readUInt32LE(0) === EOCD_SIG);
}

/**
 * Lists entries from the central directory when the buffer holds the archive's end, else by
 * walking local headers from the start (enough for a sniffing head). Never throws; returns what
 * could be read.
 */
export function listZipEntries(buf: Buffer): ZipEntry[] {
  const central = readCentralDirectory(buf);
  if (central) return central;
  return readLocalHeaders(buf);
}

function findEocd(buf: Buffer): number {
  const stop = Math.max(0, buf.length - EOCD_MIN - MAX_COMMENT);
  for (let i = buf.length - EOCD_MIN; i >= stop; i--) {
    if (buf.readUInt32LE(i) === EOCD_SIG) return i;
  }
  return -1;
}

function readCentralDirectory(buf: Buffer): ZipEntry[] | null {
  if (buf.length < EOCD_MIN) return null;
  const eocd = findEocd(buf);
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  const offset = buf.readUInt32LE(eocd + 16);
  // 0xFFFFFFFF means zip64; the local-header walk copes with those well enough for sniffing.
  if (offset === 0xffffffff || offset >= buf.length) return null;
  const entries: ZipEntry[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL_SIG) break;
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    if (p + 46 + nameLen > buf.length) break;
    entries.push({
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
      compressedSize: buf.readUInt32LE(p + 20),
      uncompressedSize: buf.readUInt32LE(p + 24),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries.length > 0 ? entries : null;
}

function readLocalHeaders(buf: Buffer): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let p = 0;
  while (p + 30 <= buf.length && buf.readUInt32LE(p) === LOCAL_SIG) {
    const flags = buf.readUInt16LE(p + 6);
    const compressedSize = buf.readUInt32LE(p + 18);
    const nameLen = buf.readUInt16LE(p + 26);
    const extraLen = buf.readUInt16LE(p + 28);
    if (p + 30 + nameLen > buf.length) break;
    entries.push({
      name: buf.toString('utf8', p + 30, p + 30 + nameLen),
      compressedSize,
      uncompressedSize: buf.readUInt32LE(p + 22),
    });
    // With a data descriptor (bit 3) the size is only known after the data: cannot skip ahead.
    if ((flags & 0x08) !== 0 && compressedSize === 0) break;
    p += 30 + nameLen + extraLen + compressedSize;
  }
  return entries;
}
