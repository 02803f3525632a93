// Generated test documents for the parse stage (unit tests and benchmarks): text PDFs built
// with pdf-lib, image-only ("scanned") PDFs, images with known text, and very long PDFs.
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, PDFHexString, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { pdfjsAssets } from '../../src/pipeline/parse/pdfjs.js';

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

function drawPage(
  page: PDFPage,
  lines: string[],
  font: PDFFont,
  o: Required<Omit<TextPdfOptions, 'pages' | 'encrypt'>>,
): void {
  const [, height] = o.pageSize;
  const lineHeight = o.fontSize * 1.6;
  const cells = lines.map((line, row) => line.split('\t').map((text, col) => ({ text, row, col })));
  const ordered =
    o.drawOrder === 'columns' ? cells.flat().sort((a, b) => a.col - b.col || a.row - b.row) : cells.flat();
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

/** The part of pdf.js's Node canvas factory used here (backed by its own @napi-rs/canvas). */
interface CanvasFactory {
  create(w: number, h: number): { canvas: { encode(format: 'png'): Promise<Buffer> }; context: unknown };
  destroy(cc: unknown): void;
}

/**
 * A PNG showing `lines` as printed text: a text PDF rendered by pdf.js in this thread with its
 * own canvas factory (trusted input, so no isolation), giving OCR tests an image with known words.
 */
export async function renderTextPng(
  lines: string[],
  options: { dpi?: number; fontSize?: number; pageSize?: [number, number] } = {},
): Promise<Buffer> {
  const pdf = await makeTextPdf({
    pages: [lines],
    fontSize: options.fontSize ?? 16,
    pageSize: options.pageSize ?? [420, 160],
  });
  const { pdfjsUrl, assets } = pdfjsAssets();
  const pdfjs = (await import(pdfjsUrl)) as typeof import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), ...assets, verbosity: 0 }).promise;
  try {
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: (options.dpi ?? 200) / 72 });
    const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
    const cc = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    try {
      const params = { canvas: cc.canvas, canvasContext: cc.context, viewport };
      await page.render(params as unknown as Parameters<typeof page.render>[0]).promise;
      return await cc.canvas.encode('png');
    } finally {
      factory.destroy(cc);
    }
  } finally {
    await doc.destroy();
  }
}

/**
 * A "scanned" PDF: each page is an image of the given lines, with no text layer. Small pages
 * keep tests fast; benchmarks should use the default Letter size. `dpi` defaults to 150.
 */
export async function makeScannedPdf(
  pages: string[][],
  options: { dpi?: number; pageSize?: [number, number] } = {},
): Promise<Buffer> {
  const pageSize = options.pageSize ?? [612, 792];
  const images: Buffer[] = [];
  for (const lines of pages)
    images.push(await renderTextPng(lines, { dpi: options.dpi ?? 150, pageSize, fontSize: 14 }));
  return makeImagePdf(images, { pageSize });
}

/**
 * Serialises numbered objects (1…n, bodies without `obj`/`endobj`) into a PDF with a correct
 * xref table; object 1 must be the catalog. For hand-made structures pdf-lib refuses to write.
 */
export function makeRawPdf(objects: string[]): Buffer {
  const parts: string[] = ['%PDF-1.7\n'];
  const offsets: number[] = [];
  let length = parts[0].length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const s = `${i + 1} 0 obj\n${body}\nendobj\n`;
    parts.push(s);
    length += Buffer.byteLength(s, 'latin1');
  });
  parts.push(`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n');
  for (const off of offsets) parts.push(`${String(off).padStart(10, '0')} 00000 n \n`);
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

const stream = (content: string, dict = ''): string =>
  `<< ${dict} /Length ${content.length} >>\nstream\n${content}\nendstream`;

/**
 * A one-page PDF without text whose tiling pattern paints a form that fills with the same
 * pattern: a reader that does not detect the cycle recurses until memory runs out.
 */
export function makeSelfPaintingPdf(): Buffer {
  return makeRawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /XObject << /Fm 5 0 R >> >> /Contents 4 0 R >>',
    stream('/Fm Do'),
    stream(
      '/Pattern cs /P1 scn 0 0 100 100 re f',
      '/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Resources << /Pattern << /P1 6 0 R >> >>',
    ),
    stream(
      '/Fm Do',
      '/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10 /Resources << /XObject << /Fm 5 0 R >> >>',
    ),
  ]);
}

/**
 * A valid PDF with `n` small pages ("Page 1", "Page 2", …), written directly rather than with
 * pdf-lib, which needs seconds for 10,000 pages; this takes milliseconds.
 */
export function makeManyPagePdf(n: number): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: string[] = [];
  for (let i = 0; i < n; i++) {
    const pageNum = objects.length + 1;
    kids.push(`${pageNum} 0 R`);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageNum + 1} 0 R >>`,
    );
    objects.push(stream(`BT /F1 12 Tf 20 100 Td (Page ${i + 1}) Tj ET`));
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${n} >>`;
  return makeRawPdf(objects);
}
