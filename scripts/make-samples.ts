// Writes the sample documents of the Quick start into samples/ (`npm run samples`):
//   invoice.pdf       a one-page supplier invoice with a text layer (line items, VAT, total)
//   receipt-scan.pdf  a till receipt as a scanner makes it: one image per page, no text layer,
//                     so the pipeline has to OCR it
//   contract.pdf      a two-page service agreement with a text layer
// The output is deterministic (no creation dates, fixed content), so running this again leaves
// the committed files unchanged. Needs the dev dependencies (pdf-lib, pdf.js's canvas).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { pdfjsAssets } from '../src/pipeline/parse/pdfjs.ts';

const OUT = fileURLToPath(new URL('../samples/', import.meta.url));
const A4: [number, number] = [595, 842];

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

async function newDoc(title: string): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  // No producer or dates: the same input gives the same bytes.
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(title, { showInWindowTitleBar: false });
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  return { doc, fonts };
}

/** Draws `text` with its right edge at `right`. */
function right(page: PDFPage, text: string, rightX: number, y: number, font: PDFFont, size: number): void {
  page.drawText(text, { x: rightX - font.widthOfTextAtSize(text, size), y, size, font });
}

function rule(page: PDFPage, y: number, x0 = 50, x1 = 545): void {
  page.drawLine({ start: { x: x0, y }, end: { x: x1, y }, thickness: 0.6, color: rgb(0.55, 0.55, 0.55) });
}

export async function invoicePdf(): Promise<Buffer> {
  const { doc, fonts } = await newDoc('Invoice INV-2026-0142');
  const p = doc.addPage(A4);
  const { regular: r, bold: b } = fonts;
  p.drawText('Northwind Office Supplies Ltd', { x: 50, y: 780, size: 16, font: b });
  ['14 Harbour Road, Bristol BS1 5TY', 'VAT No. GB 284 6611 92', 'accounts@northwind-supplies.example'].forEach(
    (l, i) => p.drawText(l, { x: 50, y: 762 - i * 13, size: 9, font: r }),
  );
  right(p, 'INVOICE', 545, 780, b, 20);
  const meta: [string, string][] = [
    ['Invoice No:', 'INV-2026-0142'],
    ['Invoice Date:', '2026-11-03'],
    ['Due Date:', '2026-12-03'],
    ['Customer No:', 'C-20817'],
  ];
  meta.forEach(([k, v], i) => {
    p.drawText(k, { x: 380, y: 750 - i * 14, size: 10, font: b });
    right(p, v, 545, 750 - i * 14, r, 10);
  });
  p.drawText('Bill To:', { x: 50, y: 680, size: 10, font: b });
  ['Acme Ltd', 'Finance Department', '2 Mill Street', 'Leeds LS1 4AP'].forEach((l, i) =>
    p.drawText(l, { x: 50, y: 666 - i * 13, size: 10, font: r }),
  );

  const cols = { desc: 50, qty: 330, unit: 430, amount: 545 };
  let y = 590;
  p.drawText('Description', { x: cols.desc, y, size: 10, font: b });
  right(p, 'Qty', cols.qty, y, b, 10);
  right(p, 'Unit Price', cols.unit, y, b, 10);
  right(p, 'Amount', cols.amount, y, b, 10);
  rule(p, y - 6);
  const items: [string, number, number][] = [
    ['A4 copy paper, 80 g/m2, box of 5 reams', 12, 21.5],
    ['Toner cartridge TN-2420, black', 4, 64.9],
    ['Ring binders A4, 40 mm, pack of 10', 6, 18.75],
    ['Desk organiser, recycled plastic', 3, 12.4],
  ];
  const money = (n: number) => n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  let subtotal = 0;
  for (const [desc, qty, unit] of items) {
    y -= 20;
    const amount = qty * unit;
    subtotal += amount;
    p.drawText(desc, { x: cols.desc, y, size: 10, font: r });
    right(p, String(qty), cols.qty, y, r, 10);
    right(p, money(unit), cols.unit, y, r, 10);
    right(p, money(amount), cols.amount, y, r, 10);
  }
  rule(p, y - 8);
  const vat = Math.round(subtotal * 0.2 * 100) / 100;
  const totals: [string, string, PDFFont][] = [
    ['Subtotal', `GBP ${money(subtotal)}`, r],
    ['VAT 20%', `GBP ${money(vat)}`, r],
    ['Total Due', `GBP ${money(subtotal + vat)}`, b],
  ];
  totals.forEach(([k, v, f], i) => {
    const ty = y - 26 - i * 16;
    p.drawText(k, { x: 380, y: ty, size: 11, font: f });
    right(p, v, 545, ty, f, 11);
  });
  [
    'Payment terms: 30 days net. Please quote the invoice number with your payment.',
    'Bank: Harbour Bank plc  Sort code 20-45-77  Account 41902288  IBAN GB33HRBK20457741902288',
  ].forEach((l, i) => p.drawText(l, { x: 50, y: 150 - i * 13, size: 9, font: r }));
  return Buffer.from(await doc.save());
}

export async function contractPdf(): Promise<Buffer> {
  const { doc, fonts } = await newDoc('Service Agreement SA-2026-07');
  const { regular: r, bold: b } = fonts;
  const pages: { heading?: string; body: string[] }[][] = [
    [
      {
        body: [
          'This Service Agreement (the "Agreement") is made on 1 October 2026 between Acme Ltd,',
          '2 Mill Street, Leeds LS1 4AP (the "Client") and Brightline Facilities Services Ltd,',
          '88 Canal Wharf, Manchester M1 2HX (the "Contractor").',
        ],
      },
      {
        heading: '1. Services',
        body: [
          "The Contractor shall provide office cleaning services at the Client's premises on",
          'working days between 18:00 and 21:00, as described in Schedule 1.',
        ],
      },
      {
        heading: '2. Term and Termination',
        body: [
          'This Agreement commences on 1 November 2026 and continues for an initial term of',
          'twelve (12) months. Thereafter it renews for successive periods of twelve months unless',
          'either party gives written notice of termination at least ninety (90) days before the',
          'end of the then current term.',
        ],
      },
      {
        heading: '3. Fees and Payment',
        body: [
          'The Client shall pay a monthly fee of GBP 2,450.00 plus VAT. The Contractor invoices',
          'monthly in arrears; invoices are payable within thirty (30) days of receipt.',
        ],
      },
    ],
    [
      {
        heading: '4. Confidentiality',
        body: [
          'Each party shall keep confidential all information received from the other party in',
          'connection with this Agreement and use it only for the purposes of this Agreement.',
        ],
      },
      {
        heading: '5. Liability',
        body: [
          'Neither party limits its liability for death or personal injury caused by negligence.',
          "Otherwise each party's total liability shall not exceed the fees paid in the twelve",
          'months before the claim.',
        ],
      },
      {
        heading: '6. Governing Law',
        body: ['This Agreement is governed by the laws of England and Wales.'],
      },
      {
        heading: 'Signatures',
        body: [
          'For Acme Ltd: Jane Porter, Director            Date: 1 October 2026',
          '',
          'For Brightline Facilities Services Ltd: Omar Haddad, Managing Director',
          'Date: 1 October 2026',
        ],
      },
    ],
  ];
  pages.forEach((sections, n) => {
    const p = doc.addPage(A4);
    let y = 780;
    if (n === 0) {
      p.drawText('SERVICE AGREEMENT', { x: 50, y, size: 18, font: b });
      p.drawText('Agreement No. SA-2026-07', { x: 50, y: y - 20, size: 10, font: r });
      y -= 56;
    }
    for (const s of sections) {
      if (s.heading) {
        p.drawText(s.heading, { x: 50, y, size: 11, font: b });
        y -= 18;
      }
      for (const line of s.body) {
        if (line) p.drawText(line, { x: 50, y, size: 10.5, font: r });
        y -= 15;
      }
      y -= 12;
    }
    right(p, `Page ${n + 1} of ${pages.length}`, 545, 40, r, 8);
  });
  return Buffer.from(await doc.save());
}

/** The receipt as printed, a narrow text page, before it is "scanned". */
async function receiptPrint(): Promise<{ pdf: Buffer; size: [number, number] }> {
  const size: [number, number] = [227, 420]; // 80 mm till roll
  const { doc, fonts } = await newDoc('receipt');
  const p = doc.addPage(size);
  const c = fonts.regular;
  const centre = (t: string, y: number, font = c, s = 9) =>
    p.drawText(t, { x: (size[0] - font.widthOfTextAtSize(t, s)) / 2, y, size: s, font });
  centre('CORNER CAFE & BAKERY', 390, fonts.bold, 11);
  centre('21 Market Square, York YO1 8RS', 375);
  centre('VAT Reg 391 5528 04', 362);
  p.drawText('Receipt 00417      2026-11-12 08:42', { x: 16, y: 338, size: 9, font: c });
  const lines: [string, string][] = [
    ['2 x Flat white', '7.20'],
    ['1 x Almond croissant', '3.40'],
    ['1 x Porridge, berries', '4.90'],
    ['1 x Orange juice', '2.80'],
  ];
  let y = 314;
  for (const [t, v] of lines) {
    p.drawText(t, { x: 16, y, size: 9, font: c });
    right(p, v, size[0] - 16, y, c, 9);
    y -= 15;
  }
  rule(p, y + 6, 16, size[0] - 16);
  y -= 8;
  for (const [t, v, f] of [
    ['TOTAL GBP', '18.30', fonts.bold],
    ['incl. VAT 20%', '3.05', c],
    ['Card payment', '18.30', c],
  ] as const) {
    p.drawText(t, { x: 16, y, size: 10, font: f });
    right(p, v, size[0] - 16, y, f, 10);
    y -= 16;
  }
  centre('Thank you for your visit!', y - 14);
  return { pdf: Buffer.from(await doc.save()), size };
}

/** The part of pdf.js's Node canvas factory used here (pdf.js brings its own canvas). */
interface CanvasFactory {
  create(
    w: number,
    h: number,
  ): { canvas: { encode(format: 'jpeg', quality: number): Promise<Buffer> }; context: unknown };
  destroy(cc: unknown): void;
}

/** Renders the receipt at 200 dpi into a JPEG and wraps it in a PDF with no text layer. */
export async function receiptScanPdf(): Promise<Buffer> {
  const { pdf, size } = await receiptPrint();
  const { pdfjsUrl, assets } = pdfjsAssets();
  const pdfjs = (await import(pdfjsUrl)) as typeof import('pdfjs-dist/legacy/build/pdf.mjs');
  const src = await pdfjs.getDocument({ data: new Uint8Array(pdf), ...assets, verbosity: 0 }).promise;
  let jpeg: Buffer;
  try {
    const page = await src.getPage(1);
    const viewport = page.getViewport({ scale: 200 / 72 });
    const factory = (src as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
    const cc = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    try {
      const params = { canvas: cc.canvas, canvasContext: cc.context, viewport };
      await page.render(params as unknown as Parameters<typeof page.render>[0]).promise;
      jpeg = await cc.canvas.encode('jpeg', 70);
    } finally {
      factory.destroy(cc);
    }
  } finally {
    await src.destroy();
  }
  const doc = await PDFDocument.create({ updateMetadata: false });
  const img = await doc.embedJpg(jpeg);
  const page = doc.addPage(size);
  page.drawImage(img, { x: 0, y: 0, width: size[0], height: size[1] });
  return Buffer.from(await doc.save());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(OUT, { recursive: true });
  const files: [string, () => Promise<Buffer>][] = [
    ['invoice.pdf', invoicePdf],
    ['receipt-scan.pdf', receiptScanPdf],
    ['contract.pdf', contractPdf],
  ];
  for (const [name, make] of files) {
    const bytes = await make();
    writeFileSync(join(OUT, name), bytes);
    console.log(`samples/${name}  ${(bytes.length / 1024).toFixed(1)} KiB`);
  }
}
