// Which files intake refuses as never processable (executables, archives), judged from the
// first bytes, and the look-alikes it must keep accepting.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { unprocessableKind } from '../../../src/pipeline/parse/refused-types.js';
import { sniffType } from '../../../src/pipeline/parse/sniff.js';
import { docxEntries, writeZip } from './fixtures/zip.js';

const bytes = (...b: number[]) => Buffer.from(b);
const pad = (head: Buffer, n = 300, fill = 0) => Buffer.concat([head, Buffer.alloc(n, fill)]);

function peFile(): Buffer {
  const b = Buffer.alloc(512);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  return b;
}

describe('unprocessableKind', () => {
  it('names executables', () => {
    expect(unprocessableKind(pad(bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1)))).toBe('an ELF executable');
    expect(unprocessableKind(peFile())).toBe('a Windows executable (PE/MZ)');
    // A DOS stub whose PE offset lies past the head: binary bytes decide.
    const stub = pad(Buffer.from('MZ', 'latin1'), 200, 0);
    stub.writeUInt32LE(1_000_000, 0x3c);
    expect(unprocessableKind(stub)).toBe('a Windows executable (PE/MZ)');
    for (const magic of [
      [0xfe, 0xed, 0xfa, 0xce],
      [0xfe, 0xed, 0xfa, 0xcf],
      [0xce, 0xfa, 0xed, 0xfe],
      [0xcf, 0xfa, 0xed, 0xfe],
      [0xca, 0xfe, 0xba, 0xbe],
    ]) {
      expect(unprocessableKind(pad(bytes(...magic)))).toBe('a Mach-O executable');
    }
  });

  it('names archives', () => {
    expect(unprocessableKind(writeZip([{ name: 'a.pdf', data: '%PDF-1.4' }]))).toBe('a zip archive');
    expect(unprocessableKind(pad(Buffer.from('Rar!\x1a\x07\x00', 'latin1')))).toBe('a RAR archive');
    expect(unprocessableKind(pad(bytes(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)))).toBe('a 7z archive');
    expect(unprocessableKind(gzipSync(Buffer.from('invoice text')))).toBe('a gzip archive');
    expect(unprocessableKind(pad(Buffer.from('BZh91AY&SY', 'latin1')))).toBe('a bzip2 archive');
    expect(unprocessableKind(pad(bytes(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)))).toBe('an xz archive');
    expect(unprocessableKind(pad(bytes(0x28, 0xb5, 0x2f, 0xfd)))).toBe('a zstd archive');
    const tar = Buffer.alloc(1024);
    tar.write('invoice.pdf', 0, 'latin1');
    tar.write('ustar', 257, 'latin1');
    expect(unprocessableKind(tar)).toBe('a tar archive');
  });

  it('leaves processable files and text look-alikes alone', () => {
    const docx = writeZip(docxEntries('<w:p><w:r><w:t>Hi</w:t></w:r></w:p>'));
    expect(sniffType(docx)?.ext).toBe('docx');
    expect(unprocessableKind(docx)).toBeNull();
    // The head of a large DOCX: local entries only, no central directory yet.
    expect(unprocessableKind(docx.subarray(0, 200))).toBeNull();
    for (const text of [
      'MZ Transport GmbH\nInvoice 12\n',
      'BZh is how the ticket starts\n',
      'Rar is not a magic word\n',
      '%PDF-1.7\n1 0 obj\n',
    ]) {
      expect(unprocessableKind(Buffer.from(text)), text).toBeNull();
    }
    expect(unprocessableKind(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBeNull();
    expect(unprocessableKind(Buffer.alloc(0))).toBeNull();
  });
});
