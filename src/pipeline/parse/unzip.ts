import { crc32, inflateRawSync } from 'node:zlib';
import { ParseError } from './errors.js';

/**
 * Bounds for {@link openZip}. A zip's declared sizes are written by whoever made the file, so
 * none of them is trusted: the budget counts bytes as inflation produces them and stops there.
 */
export interface UnzipLimits {
  /** Bytes every read of one archive together may produce. */
  maxInflatedBytes: number;
  /** Entries in the central directory. Default 10,000. */
  maxEntries?: number;
  /** Longest entry name, in bytes. Default 1,024. */
  maxNameBytes?: number;
}

/** An archive opened for bounded reading. Nested archives are never opened. */
export interface BoundedZip {
  /** Entry names in directory order. */
  readonly names: readonly string[];
  has(name: string): boolean;
  /**
   * The entry's bytes. Throws ParseError: TOO_LARGE once the archive's budget would be passed,
   * ENCRYPTED for an encrypted entry, CORRUPT for anything malformed (including a wrong CRC).
   */
  read(name: string): Buffer;
  /** Bytes produced so far by all reads. */
  readonly inflatedBytes: number;
}

interface Entry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;
const U32_MAX = 0xffffffff;

const corrupt = (why: string): ParseError => new ParseError('CORRUPT', `archive is malformed: ${why}`);

function u64(buf: Buffer, at: number): number {
  const v = buf.readBigUInt64LE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt('a 64-bit size or offset is out of range');
  return Number(v);
}

function findEocd(buf: Buffer): number {
  const stop = Math.max(0, buf.length - EOCD_MIN - MAX_COMMENT);
  for (let i = buf.length - EOCD_MIN; i >= stop; i--) {
    if (buf.readUInt32LE(i) === EOCD_SIG) return i;
  }
  return -1;
}

/** Where the central directory lies and how many entries it claims (zip64 aware). */
function directory(buf: Buffer): { count: number; offset: number; size: number } {
  if (buf.length < EOCD_MIN) throw corrupt('too short');
  const eocd = findEocd(buf);
  if (eocd < 0) throw corrupt('no end of central directory');
  if (buf.readUInt16LE(eocd + 4) !== 0 || buf.readUInt16LE(eocd + 6) !== 0)
    throw corrupt('multi-volume archives are not supported');
  let count = buf.readUInt16LE(eocd + 10);
  let size = buf.readUInt32LE(eocd + 12);
  let offset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === U32_MAX || offset === U32_MAX) {
    const locator = eocd - 20;
    if (locator < 0 || buf.readUInt32LE(locator) !== ZIP64_LOCATOR_SIG) throw corrupt('zip64 locator missing');
    const at = u64(buf, locator + 8);
    if (at + 56 > buf.length || buf.readUInt32LE(at) !== ZIP64_EOCD_SIG) throw corrupt('zip64 end record missing');
    count = u64(buf, at + 32);
    size = u64(buf, at + 40);
    offset = u64(buf, at + 48);
  }
  if (offset + size > buf.length) throw corrupt('central directory lies past the end of the file');
  return { count, offset, size };
}

/** Sizes and offset that do not fit 32 bits live in the zip64 extra field, in this order. */
function applyZip64(buf: Buffer, e: Entry, extraStart: number, extraEnd: number): void {
  let p = extraStart;
  while (p + 4 <= extraEnd) {
    const id = buf.readUInt16LE(p);
    const len = buf.readUInt16LE(p + 2);
    if (id === 0x0001) {
      let q = p + 4;
      const take = (): number => {
        if (q + 8 > p + 4 + len) throw corrupt('zip64 field too short');
        const v = u64(buf, q);
        q += 8;
        return v;
      };
      if (e.uncompressedSize === U32_MAX) e.uncompressedSize = take();
      if (e.compressedSize === U32_MAX) e.compressedSize = take();
      if (e.localOffset === U32_MAX) e.localOffset = take();
      return;
    }
    p += 4 + len;
  }
}

function readEntries(buf: Buffer, maxEntries: number, maxNameBytes: number): Map<string, Entry> {
  const { count, offset, size } = directory(buf);
  if (count > maxEntries) throw new ParseError('TOO_LARGE', `archive has ${count} entries; the limit is ${maxEntries}`);
  const entries = new Map<string, Entry>();
  const end = offset + size;
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > end || buf.readUInt32LE(p) !== CENTRAL_SIG) throw corrupt('central directory entry missing');
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    if (nameLen > maxNameBytes)
      throw new ParseError('TOO_LARGE', `an archive entry name is ${nameLen} bytes; the limit is ${maxNameBytes}`);
    if (p + 46 + nameLen + extraLen + commentLen > end)
      throw corrupt('central directory entry runs past the directory');
    const flags = buf.readUInt16LE(p + 8);
    // Bit 11: UTF-8 names; otherwise CP437, whose ASCII range is all OOXML parts use.
    const name = buf.toString((flags & 0x800) !== 0 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLen);
    if (name.includes('\0')) throw corrupt('an entry name contains NUL');
    // Two entries with one name could show one reader different content than another.
    if (entries.has(name)) throw corrupt(`duplicate entry ${JSON.stringify(name.slice(0, 100))}`);
    const entry: Entry = {
      name,
      flags,
      method: buf.readUInt16LE(p + 10),
      crc: buf.readUInt32LE(p + 16),
      compressedSize: buf.readUInt32LE(p + 20),
      uncompressedSize: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
    };
    applyZip64(buf, entry, p + 46 + nameLen, p + 46 + nameLen + extraLen);
    entries.set(name, entry);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * Opens a zip archive from its central directory and reads entries with a byte budget shared
 * by every read. Inflation stops as soon as the output would pass the remaining budget, so a
 * bomb costs at most the budget in memory and the time to produce it. Throws ParseError
 * (CORRUPT, TOO_LARGE) when the directory itself is malformed or over the limits.
 */
export function openZip(buf: Buffer, limits: UnzipLimits): BoundedZip {
  const entries = readEntries(buf, limits.maxEntries ?? 10_000, limits.maxNameBytes ?? 1024);
  const budget = limits.maxInflatedBytes;
  let inflated = 0;

  function dataOf(e: Entry): Buffer {
    const at = e.localOffset;
    if (at + 30 > buf.length || buf.readUInt32LE(at) !== LOCAL_SIG) throw corrupt(`local header of ${e.name} missing`);
    // The local header's own name and extra lengths decide where the data starts.
    const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
    if (start + e.compressedSize > buf.length) throw corrupt(`data of ${e.name} runs past the end of the file`);
    return buf.subarray(start, start + e.compressedSize);
  }

  function tooLarge(): ParseError {
    return new ParseError('TOO_LARGE', `archive inflates to more than ${budget} bytes (the limit for one document)`);
  }

  function read(name: string): Buffer {
    const e = entries.get(name);
    if (!e) throw corrupt(`no entry ${JSON.stringify(name)}`);
    if ((e.flags & 0x1) !== 0) throw new ParseError('ENCRYPTED', `archive entry ${name} is encrypted`);
    const raw = dataOf(e);
    const remaining = budget - inflated;
    let out: Buffer;
    if (e.method === 0) {
      if (raw.length > remaining) throw tooLarge();
      out = Buffer.from(raw);
    } else if (e.method === 8) {
      try {
        // maxOutputLength makes zlib stop (and throw) as soon as it has produced that much.
        out = inflateRawSync(raw, { maxOutputLength: Math.max(1, remaining) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
        throw corrupt(`${name} does not inflate: ${(err as Error).message}`);
      }
      if (out.length > remaining) throw tooLarge();
    } else {
      throw corrupt(`${name} uses compression method ${e.method} (only stored and deflate are supported)`);
    }
    inflated += out.length;
    if (crc32(out) >>> 0 !== e.crc) throw corrupt(`${name} fails its CRC check`);
    return out;
  }

  return {
    names: [...entries.keys()],
    has: (name) => entries.has(name),
    read,
    get inflatedBytes() {
      return inflated;
    },
  };
}
