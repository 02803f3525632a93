// Decompression bombs built in memory, in a few milliseconds, so no large binary is committed:
// a DOCX whose document part inflates to gigabytes while declaring a kilobyte, a PDF whose
// content stream does the same, and images that declare billions of pixels.
import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';
import { docxEntries, writeZip } from '../unit/parse/fixtures/zip.js';

const MiB = 1024 * 1024;

/**
 * A raw deflate stream that inflates to `prefix`, then `total` bytes of `unit` repeated, then
 * `suffix` (about 1 KB of output per MB it expands to). It is made of one compressed 1 MiB
 * block repeated: each copy is a sync-flushed, non-final deflate block that refers only to
 * itself, so the copies can simply be concatenated.
 */
export function deflateBomb(total: number, unit = 'a', prefix = '', suffix = ''): Buffer {
  const block = Buffer.alloc(MiB, unit);
  const sync = { level: 9, finishFlush: constants.Z_SYNC_FLUSH };
  const chunk = deflateRawSync(block, sync);
  const parts: Buffer[] = [deflateRawSync(Buffer.from(prefix), sync)];
  for (let i = 0; i < Math.floor(total / MiB); i++) parts.push(chunk);
  parts.push(deflateRawSync(Buffer.from(suffix)));
  return Buffer.concat(parts);
}

/** CRC-32 of what {@link deflateBomb} inflates to (computed block by block, never held whole). */
function bombCrc(total: number, unit: string, prefix: string, suffix: string): number {
  const block = Buffer.alloc(MiB, unit);
  let crc = crc32(prefix);
  for (let i = 0; i < Math.floor(total / MiB); i++) crc = crc32(block, crc);
  return crc32(suffix, crc) >>> 0;
}

/**
 * A .docx whose word/document.xml inflates to `total` bytes while declaring 1 KB: one run of
 * text, or with `paragraphs` a well-formed body of 64-byte paragraphs (what makes an XML
 * parser build the largest tree).
 */
export function makeDocxBomb(total: number, options: { paragraphs?: boolean } = {}): Buffer {
  const entries = docxEntries('');
  const doc = entries.find((e) => e.name === 'word/document.xml')!;
  const open =
    '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
  // 64 bytes, so that whole paragraphs fill each repeated 1 MiB block.
  const paragraph = `<w:p><w:r><w:t>${'x'.repeat(31)}</w:t></w:r></w:p>`;
  const [unit, prefix, suffix] = options.paragraphs
    ? [paragraph, open, '</w:body></w:document>']
    : ['a', `${open}<w:p><w:r><w:t>`, '</w:t></w:r></w:p></w:body></w:document>'];
  doc.deflated = deflateBomb(total, unit, prefix, suffix);
  doc.declaredSize = 1024;
  // A correct checksum where it is cheap, so that a reader that gets to the end accepts it.
  if (total <= 64 * MiB) doc.crc = bombCrc(total, unit, prefix, suffix);
  return writeZip(entries);
}

/** A zlib stream (the PDF FlateDecode format: header, deflate data, Adler-32) of a bomb. */
function zlibBomb(total: number, prefix: string): Buffer {
  // The checksum is left wrong: pdf.js does not check it, and computing it would mean
  // producing the gigabytes this helper exists to avoid.
  return Buffer.concat([Buffer.from([0x78, 0xda]), deflateBomb(total, ' ', prefix), Buffer.alloc(4)]);
}

/** A PDF of the given objects (numbered from 1, the first being the catalog) with its xref table. */
function pdfWithObjects(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const b = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.isBuffer(body) ? body : Buffer.from(body),
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(b);
    offset += b.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

/**
 * A one-page PDF whose content stream is a FlateDecode stream of about 2 KB per MB that
 * inflates to `total` bytes: one line of text, then spaces.
 */
export function makePdfFlateBomb(total: number): Buffer {
  const stream = zlibBomb(total, 'BT /F1 12 Tf 72 700 Td (hello from the bomb) Tj ET\n');
  return pdfWithObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
      stream,
      Buffer.from('\nendstream'),
    ]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/**
 * A PNG that declares `width`×`height` 8-bit grey pixels. Its image data holds only the first
 * `rows` rows (all white), so the file stays tiny whatever it declares.
 */
export function makePngDeclaring(width: number, height: number, rows = 1): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((width + 1) * Math.min(rows, height), 0xff);
  for (let r = 0; r < Math.min(rows, height); r++) raw[r * (width + 1)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
