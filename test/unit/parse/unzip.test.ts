import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/pipeline/parse/index.js';
import { openZip } from '../../../src/pipeline/parse/unzip.js';
import { deflateBomb } from '../../helpers/bombs.js';
import { writeZip } from './fixtures/zip.js';

const MiB = 1024 * 1024;

function parseErr(fn: () => unknown): ParseError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ParseError) return err;
    throw err;
  }
  throw new Error('expected a ParseError');
}

/** Rewrites the central directory to the zip64 form: sizes and offsets in the extra field. */
function toZip64(zip: Buffer): Buffer {
  const eocd = zip.length - 22;
  const cdOffset = zip.readUInt32LE(eocd + 16);
  const count = zip.readUInt16LE(eocd + 10);
  const centrals: Buffer[] = [];
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    const nameLen = zip.readUInt16LE(p + 28);
    const head = Buffer.from(zip.subarray(p, p + 46 + nameLen));
    const extra = Buffer.alloc(4 + 24);
    extra.writeUInt16LE(1, 0);
    extra.writeUInt16LE(24, 2);
    extra.writeBigUInt64LE(BigInt(head.readUInt32LE(24)), 4);
    extra.writeBigUInt64LE(BigInt(head.readUInt32LE(20)), 12);
    extra.writeBigUInt64LE(BigInt(head.readUInt32LE(42)), 20);
    head.writeUInt32LE(0xffffffff, 20);
    head.writeUInt32LE(0xffffffff, 24);
    head.writeUInt32LE(0xffffffff, 42);
    head.writeUInt16LE(extra.length, 30);
    centrals.push(head, extra);
    p += 46 + nameLen;
  }
  const dir = Buffer.concat(centrals);
  const rec = Buffer.alloc(56);
  rec.writeUInt32LE(0x06064b50, 0);
  rec.writeBigUInt64LE(44n, 4);
  rec.writeBigUInt64LE(BigInt(count), 24);
  rec.writeBigUInt64LE(BigInt(count), 32);
  rec.writeBigUInt64LE(BigInt(dir.length), 40);
  rec.writeBigUInt64LE(BigInt(cdOffset), 48);
  const loc = Buffer.alloc(20);
  loc.writeUInt32LE(0x07064b50, 0);
  loc.writeBigUInt64LE(BigInt(cdOffset + dir.length), 8);
  loc.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([zip.subarray(0, cdOffset), dir, rec, loc, end]);
}

describe('bounded unzip', () => {
  const files = [
    { name: 'a.txt', data: 'alpha '.repeat(100) },
    { name: 'dir/b.xml', data: '<b/>' },
  ];

  it('reads stored and deflated entries', () => {
    for (const deflate of [false, true]) {
      const zip = openZip(writeZip(files, { deflate }), { maxInflatedBytes: MiB });
      expect(zip.names).toEqual(['a.txt', 'dir/b.xml']);
      expect(zip.has('dir/b.xml')).toBe(true);
      expect(zip.has('nope')).toBe(false);
      expect(zip.read('a.txt').toString()).toBe('alpha '.repeat(100));
      expect(zip.read('dir/b.xml').toString()).toBe('<b/>');
      expect(zip.inflatedBytes).toBe(604);
    }
  });

  it('reads zip64 directories', () => {
    const zip = openZip(toZip64(writeZip(files, { deflate: true })), { maxInflatedBytes: MiB });
    expect(zip.names).toEqual(['a.txt', 'dir/b.xml']);
    expect(zip.read('dir/b.xml').toString()).toBe('<b/>');
  });

  it('stops inflating a member that lies about its size at the budget', () => {
    // 1 GiB of output declared as 1 KB; the budget is 8 MiB.
    const bomb = writeZip([{ name: 'x', data: '', deflated: deflateBomb(1024 * MiB), declaredSize: 1024 }]);
    expect(bomb.length).toBeLessThan(2 * MiB);
    const zip = openZip(bomb, { maxInflatedBytes: 8 * MiB });
    const err = parseErr(() => zip.read('x'));
    expect(err.code).toBe('TOO_LARGE');
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/more than 8388608 bytes/);
  });

  it('shares one budget between all reads of an archive', () => {
    const data = 'z'.repeat(600 * 1024);
    const zip = openZip(
      writeZip(
        [
          { name: 'a', data },
          { name: 'b', data },
        ],
        { deflate: true },
      ),
      { maxInflatedBytes: MiB },
    );
    expect(zip.read('a').length).toBe(data.length);
    expect(parseErr(() => zip.read('b')).code).toBe('TOO_LARGE');
    // Stored entries count the same way.
    const stored = openZip(
      writeZip([
        { name: 'a', data },
        { name: 'b', data },
      ]),
      { maxInflatedBytes: MiB },
    );
    stored.read('a');
    expect(parseErr(() => stored.read('a')).code).toBe('TOO_LARGE');
  });

  it('bounds the entry count and name length', () => {
    const many = writeZip(Array.from({ length: 50 }, (_, i) => ({ name: `f${i}`, data: '' })));
    expect(parseErr(() => openZip(many, { maxInflatedBytes: MiB, maxEntries: 49 })).code).toBe('TOO_LARGE');
    expect(openZip(many, { maxInflatedBytes: MiB, maxEntries: 50 }).names).toHaveLength(50);
    const longName = writeZip([{ name: 'n'.repeat(2000), data: '' }]);
    expect(parseErr(() => openZip(longName, { maxInflatedBytes: MiB })).code).toBe('TOO_LARGE');
  });

  it('refuses malformed archives as CORRUPT', () => {
    const good = writeZip(files, { deflate: true });
    const cases: [string, Buffer][] = [
      ['no directory', good.subarray(0, good.length - 30)],
      [
        'duplicate names',
        writeZip([
          { name: 'a', data: '1' },
          { name: 'a', data: '2' },
        ]),
      ],
      ['NUL in a name', writeZip([{ name: 'a\0b', data: '1' }])],
    ];
    for (const [why, bytes] of cases) {
      expect(parseErr(() => openZip(bytes, { maxInflatedBytes: MiB })).code, why).toBe('CORRUPT');
    }
    // Data that is not deflate, a wrong CRC, an unknown method, data past the end.
    const readCases: [string, Buffer][] = [
      ['not deflate', writeZip([{ name: 'x', data: 'hello', deflated: Buffer.from('not deflate at all') }])],
      ['wrong crc', writeZip([{ name: 'x', data: 'hello', deflated: deflateRawSync(Buffer.from('hellO')) }])],
      ['method 12', writeZip([{ name: 'x', data: 'hello', method: 12 }])],
    ];
    for (const [why, bytes] of readCases) {
      expect(parseErr(() => openZip(bytes, { maxInflatedBytes: MiB }).read('x')).code, why).toBe('CORRUPT');
    }
    const truncated = Buffer.from(writeZip([{ name: 'x', data: 'hello world' }]));
    // Central directory at 42 (30-byte local header, 1-byte name, 11 bytes); its compressed size at +20.
    truncated.writeUInt32LE(1 << 20, 42 + 20);
    expect(parseErr(() => openZip(truncated, { maxInflatedBytes: MiB }).read('x')).code).toBe('CORRUPT');
  });

  it('reports encrypted entries as ENCRYPTED', () => {
    const zip = openZip(writeZip([{ name: 'x', data: 'secret', flags: 1 }]), { maxInflatedBytes: MiB });
    expect(parseErr(() => zip.read('x')).code).toBe('ENCRYPTED');
  });
});
