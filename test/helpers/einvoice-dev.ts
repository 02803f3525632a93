// The ZUGFeRD / Factur-X e-invoices of the shared corpus (classify/invoice/zugferd_*.pdf) as
// labelled invoices: the invoice's own embedded XML gives the true invoice number, issue date,
// grand total and seller, and the PDF's text is read by the product's parser, as an upload is.
// The attachment is taken out with poppler-utils' `pdfdetach` (a test tool, not a runtime
// dependency); without it, or without the corpus, the set is empty. Read in place, never copied.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findAmounts, findDates } from '../../src/pipeline/extract/index.js';
import { parseDocument, type PdfEngine } from '../../src/pipeline/parse/index.js';
import type { LabelledDoc } from './extraction-dev.js';

export function hasPdfdetach(): boolean {
  try {
    execFileSync('pdfdetach', ['-v'], { stdio: 'ignore' });
    return true;
  } catch (e) {
    // `pdfdetach -v` prints its version and exits with 99; only a missing program is absence.
    return (e as { code?: string }).code !== 'ENOENT';
  }
}

const xmlText = (s: string): string =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .trim();

/** Invoice number, issue date, grand total and seller from a CII (ZUGFeRD 1/2, Factur-X) XML. */
export function ciiLabels(xml: string): LabelledDoc['expected'] {
  const id = /<(?:\w+:)?(?:Header)?ExchangedDocument>[\s\S]*?<(?:\w+:)?ID>([^<]+)</.exec(xml)?.[1];
  const date = /IssueDateTime>\s*<(?:\w+:)?DateTimeString[^>]*>(\d{4})(\d{2})(\d{2})</.exec(xml);
  const total = /GrandTotalAmount[^>]*>(-?[\d.]+)</.exec(xml)?.[1];
  const seller = /SellerTradeParty>[\s\S]*?<(?:\w+:)?Name>([^<]+)</.exec(xml)?.[1];
  return {
    ...(id ? { invoice_number: xmlText(id) } : {}),
    ...(date ? { date: `${date[1]}-${date[2]}-${date[3]}` } : {}),
    ...(total ? { total: Number(total) } : {}),
    ...(seller ? { vendor: xmlText(seller) } : {}),
  };
}

const squash = (s: string): string => s.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The labels the printed invoice shows. An embedded XML can disagree with its PDF (one sample
 * prints 406,82 € where its XML says 571.04): a value the text does not contain cannot be read
 * from it, so it is left out and named in `dropped`.
 */
export function printedLabels(
  text: string,
  expected: LabelledDoc['expected'],
): { expected: LabelledDoc['expected']; dropped: string[] } {
  const out: LabelledDoc['expected'] = {};
  const dropped: string[] = [];
  const flat = squash(text);
  const amounts = [',', '.'].flatMap((sep) =>
    findAmounts(text, { decimalSeparator: sep as ',' | '.' }).map((a) => a.value),
  );
  const dates = [true, false].flatMap((dayFirst) => findDates(text, { dayFirst }).map((d) => d.iso));
  if (expected.total !== undefined) {
    if (amounts.some((a) => Math.abs(a - expected.total!) < 0.005)) out.total = expected.total;
    else dropped.push(`total ${expected.total}`);
  }
  if (expected.date !== undefined) {
    if (dates.includes(expected.date)) out.date = expected.date;
    else dropped.push(`date ${expected.date}`);
  }
  for (const k of ['invoice_number', 'vendor'] as const) {
    const v = expected[k];
    if (v === undefined) continue;
    if (flat.includes(squash(v))) out[k] = v;
    else dropped.push(`${k} ${v}`);
  }
  return { expected: out, dropped };
}

export async function loadEInvoices(corpusDir: string, pdf: PdfEngine, dropped: string[] = []): Promise<LabelledDoc[]> {
  const dir = join(corpusDir, 'classify', 'invoice');
  if (!existsSync(dir) || !hasPdfdetach()) return [];
  const out: LabelledDoc[] = [];
  for (const f of readdirSync(dir)
    .filter((n) => n.startsWith('zugferd_') && n.endsWith('.pdf'))
    .sort()) {
    const tmp = mkdtempSync(join(tmpdir(), 'docpipe-einvoice-'));
    try {
      execFileSync('pdfdetach', ['-saveall', '-o', tmp, join(dir, f)], { stdio: 'ignore' });
      const xml = readdirSync(tmp).find((n) => n.toLowerCase().endsWith('.xml'));
      if (!xml) continue;
      const bytes = readFileSync(join(dir, f));
      const parsed = await parseDocument({ bytes, filename: f, maxPages: 50 }, { pdf });
      const name = `einvoice/${f.replace(/\.pdf$/, '')}`;
      const labels = printedLabels(parsed.text, ciiLabels(readFileSync(join(tmp, xml), 'utf8')));
      dropped.push(...labels.dropped.map((d) => `${name}: ${d} is not printed in the text`));
      out.push({ name, text: parsed.text, filename: f, expected: labels.expected });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return out;
}
