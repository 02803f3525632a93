// Generated test documents for the parse stage (unit tests and benchmarks): text PDFs built
// with pdf-lib, image-only ("scanned") PDFs, images with known text, and very long PDFs.
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, PDFHexString, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { openPdf } from '../../src/pipeline/parse/pdfjs.js';
import { renderPageToPng } from '../../src/pipeline/parse/pdf-raster.js';

/** Options for {@link makeTextPdf}. */
export interface TextPdfOptions {
  /** Lines per page. A tab in a line splits it into table cells placed in fixed columns. */
  pages: string[][];
  /**
   * Mark the file as encrypted with the Standard security handler (RC4, revision 2) whose
   * password is unknown: readers must ask for a password. pdf-lib cannot encrypt content, so
   * the streams stay plain; for a reader that is indistinguishable from a wrong password.
   * Default false.
   */
  encrypt?: boolean;
  /** Font size in points. Default 12. */
  fontSize?: number;
  /** Width of a table column in points. Default 150. */
  columnWidth?: number;
  /**
   * Order of drawing operations for tables: `rows` (natural) or `columns` (every first cell,
   * then every second cell, …), which makes content-stream order differ from reading order.
   * Default `rows`.
   */
  drawOrder?: 'rows' | 'columns';
  /** Page size in points. Default US Letter [612, 792]. */
  pageSize?: [number, number];
}

const MARGIN = 50;

function drawPage(page: PDFPage, lines: string[], font: PDFFont, o: Required<Omit<TextPdfOptions, 'pages' | 'encrypt'>>): void {
  const [, height] = o.pageSize;
  const lineHeight = o.fontSize * 1.6;
  const cells = lines.map((line, row) => line.split('\t').map((text, col) => ({ text, row, col })));
  const ordered =
    o.drawOrder === 'columns'
      ? cells.flat().sort((a, b) => a.col - b.col || a.row - b.row)
      : cells.flat();
  for (const c of ordered) {
    if (c.text === '') continue;
    page.drawText(c.text, {
      x: MARGIN + c.col * o.columnWidth,
      y: height - MARGIN - o.fontSize - c.row * lineHeight,
      size: o.fontSize,
      font,
    });
  }
}

/** A PDF with a real text layer (Helvetica, not embedded), one page per entry of `pages`. */
export async function makeTextPdf(options: TextPdfOptions): Promise<Buffer> {
  const o = {
    fontSize: options.fontSize ?? 12,
    columnWidth: options.columnWidth ?? 150,
    drawOrder: options.drawOrder ?? 'rows',
    pageSize: options.pageSize ?? [612, 792],
  } as const;
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of options.pages) drawPage(doc.addPage(o.pageSize), lines, font, o);
  if (options.encrypt) {
    const ctx = doc.context;
    const encrypt = ctx.obj({
      Filter: 'Standard',
      V: 1,
      R: 2,
      Length: 40,
      P: -44,
      O: PDFHexString.of('5a'.repeat(32)),
      U: PDFHexString.of('a5'.repeat(32)),
    });
    ctx.trailerInfo.Encrypt = ctx.register(encrypt);
    const id = PDFHexString.of('0123456789abcdef'.repeat(2));
    ctx.trailerInfo.ID = ctx.obj([id, id]);
    return Buffer.from(await doc.save({ useObjectStreams: false }));
  }
  return Buffer.from(await doc.save());
}

/** A PDF whose pages hold only a full-page image each (PNG or JPEG bytes): no text layer. */
export async function makeImagePdf(images: Buffer[], options: { pageSize?: [number, number] } = {}): Promise<Buffer> {
  const [w, h] = options.pageSize ?? [612, 792];
  const doc = await PDFDocument.create();
  for (const bytes of images) {
    const img = bytes[0] === 0x89 ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    const page = doc.addPage([w, h]);
    const scale = Math.min(w / img.width, h / img.height);
    page.drawImage(img, { x: 0, y: h - img.height * scale, width: img.width * scale, height: img.height * scale });
  }
  return Buffer.from(await doc.save());
}

/**
 * A grayscale PNG, encoded by hand (no canvas). `pixel(x, y)` returns 0 (black) … 255 (white);
 * the default is a white page with a grey frame, i.e. an image with no text on it.
 */
export function makePng(width: number, height: number, pixel?: (x: number, y: number) => number): Buffer {
  const px = pixel ?? ((x: number, y: number) => (x < 4 || y < 4 || x >= width - 4 || y >= height - 4 ? 128 : 255));
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = px(x, y);
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PNG showing `lines` as printed text: a text PDF rendered by pdf.js (its own canvas), so
 * OCR tests have an image with known words. `dpi` defaults to 200.
 */
export async function renderTextPng(lines: string[], options: { dpi?: number; fontSize?: number; pageSize?: [number, number] } = {}): Promise<Buffer> {
  const pdf = await makeTextPdf({ pages: [lines], fontSize: options.fontSize ?? 16, pageSize: options.pageSize ?? [420, 160] });
  const doc = await openPdf(pdf);
  try {
    const page = await doc.getPage(1);
    return await renderPageToPng(doc, page, { dpi: options.dpi ?? 200 });
  } finally {
    await doc.destroy();
  }
}

/**
 * A "scanned" PDF: each page is an image of the given lines, with no text layer. Small pages
 * keep tests fast; benchmarks should use the default Letter size. `dpi` defaults to 150.
 */
export async function makeScannedPdf(pages: string[][], options: { dpi?: number; pageSize?: [number, number] } = {}): Promise<Buffer> {
  const pageSize = options.pageSize ?? [612, 792];
  const images: Buffer[] = [];
  for (const lines of pages) images.push(await renderTextPng(lines, { dpi: options.dpi ?? 150, pageSize, fontSize: 14 }));
  return makeImagePdf(images, { pageSize });
}

/**
 * A valid PDF with `n` small pages ("Page 1", "Page 2", …), written directly rather than with
 * pdf-lib, which needs seconds for 10,000 pages; this takes milliseconds.
 */
export function makeManyPagePdf(n: number): Buffer {
  const parts: string[] = ['%PDF-1.4\n'];
  const offsets: number[] = [];
  let length = parts[0].length;
  const add = (num: number, body: string): void => {
    offsets[num] = length;
    const s = `${num} 0 obj\n${body}\nendobj\n`;
    parts.push(s);
    length += Buffer.byteLength(s, 'latin1');
  };
  const fontObj = 3;
  const firstPage = 4; // page i: object 4 + 2i, its content 5 + 2i
  const kids = Array.from({ length: n }, (_, i) => `${firstPage + 2 * i} 0 R`).join(' ');
  add(1, '<< /Type /Catalog /Pages 2 0 R >>');
  add(2, `<< /Type /Pages /Kids [${kids}] /Count ${n} >>`);
  add(fontObj, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < n; i++) {
    const pageNum = firstPage + 2 * i;
    add(
      pageNum,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 ${fontObj} 0 R >> >> /Contents ${pageNum + 1} 0 R >>`,
    );
    const content = `BT /F1 12 Tf 20 100 Td (Page ${i + 1}) Tj ET`;
    add(pageNum + 1, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  const size = firstPage + 2 * n;
  const xref = [`xref\n0 ${size}\n`, '0000000000 65535 f \n'];
  for (let i = 1; i < size; i++) xref.push(`${String(offsets[i]).padStart(10, '0')} 00000 n \n`);
  parts.push(...xref, `trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}
