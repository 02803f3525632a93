// Template-free extraction scored against the shared corpus's labels (SROIE receipts and
// invoice2data's golden invoices), the same way in-process (tests) and through the API (the
// quality benchmark). The corpus is read in place, never copied.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAmount, parseDate } from '../../src/pipeline/extract/index.js';
import { loadGolden } from './invoice2data-golden.js';

export interface LabelledDoc {
  /** e.g. `sroie/X00016469612` or `custom/basic`. */
  name: string;
  /** What the upload carries (the receipt's OCR lines, the invoice's text). */
  text: string;
  filename: string;
  /** Expected values: `total` (number), `date` (ISO), `vendor`, `invoice_number`. */
  expected: { total?: number; date?: string; vendor?: string; invoice_number?: string };
}

/** An annotator's date in whatever notation (SROIE is Malaysian: day first) as ISO. */
export function labelDate(raw: string | undefined, dayFirst = true): string | undefined {
  if (!raw) return undefined;
  return parseDate(raw, { dayFirst }) ?? undefined;
}

function labelAmount(raw: string | undefined): number | undefined {
  if (!raw) return undefined;
  return parseAmount(raw.replace(/^RM\s*/i, '').replace(/^\$/, ''), { decimalSeparator: '.' }) ?? undefined;
}

export function loadSroie(corpusDir: string): LabelledDoc[] {
  const dir = join(corpusDir, 'sroie');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .flatMap((f) => {
      const json = join(dir, f.replace(/\.txt$/, '.json'));
      if (!existsSync(json)) return [];
      const label = JSON.parse(readFileSync(json, 'utf8')) as { company?: string; date?: string; total?: string };
      return [
        {
          name: `sroie/${f.replace(/\.txt$/, '')}`,
          text: readFileSync(join(dir, f), 'utf8'),
          filename: f,
          expected: { total: labelAmount(label.total), date: labelDate(label.date), vendor: label.company },
        },
      ];
    });
}

/** invoice2data's golden invoices: their invoice number, date and amount. */
export function loadGoldenInvoices(corpusDir: string): LabelledDoc[] {
  const { custom, extra } = loadGolden(corpusDir);
  return [...custom, ...extra].map((c) => ({
    name: c.name,
    text: c.text,
    filename: `${c.name.replace('/', '-')}.txt`,
    expected: {
      ...(typeof c.expected.amount === 'number' ? { total: c.expected.amount } : {}),
      ...(typeof c.expected.date === 'string' ? { date: c.expected.date.slice(0, 10) } : {}),
      ...(c.expected.invoice_number !== undefined ? { invoice_number: String(c.expected.invoice_number) } : {}),
    },
  }));
}

type Fields = Record<string, { value: unknown; confidence: number } | undefined>;

/** The template-free field that answers each labelled question (generic names differ by type). */
export function answer(
  fields: Fields,
  what: 'total' | 'date' | 'vendor' | 'invoice_number',
): { value: unknown; confidence: number } | undefined {
  const names = {
    total: ['total', 'amount'],
    date: ['date', 'issue_date'],
    vendor: ['merchant', 'vendor', 'issuer'],
    invoice_number: ['invoice_number'],
  }[what];
  for (const n of names) if (fields[n] !== undefined && fields[n]?.value !== null) return fields[n];
  return undefined;
}

const squash = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Whether a found value is the labelled one (amounts to the cent, dates as days, names loosely). */
export function correct(
  what: 'total' | 'date' | 'vendor' | 'invoice_number',
  expected: unknown,
  found: unknown,
): boolean {
  if (found === undefined || found === null) return false;
  if (what === 'total') return typeof found === 'number' && Math.abs(found - (expected as number)) < 0.005;
  if (what === 'date') return String(found).slice(0, 10) === expected;
  if (what === 'invoice_number') return squash(String(found)) === squash(String(expected));
  // Vendor: the OCR'd name and the annotator's may differ by a character or a suffix.
  const a = squash(String(found));
  const b = squash(String(expected));
  return a.length > 0 && (a === b || (a.length >= 6 && (b.includes(a) || a.includes(b))));
}

export interface Outcome {
  doc: string;
  field: 'total' | 'date' | 'vendor' | 'invoice_number';
  ok: boolean;
  /** Confidence of the value given (0 when none was given). */
  confidence: number;
  given: boolean;
  expected: unknown;
  found: unknown;
}

export function score(doc: LabelledDoc, fields: Fields): Outcome[] {
  const out: Outcome[] = [];
  for (const what of ['total', 'date', 'vendor', 'invoice_number'] as const) {
    const want = doc.expected[what];
    if (want === undefined) continue;
    const a = answer(fields, what);
    out.push({
      doc: doc.name,
      field: what,
      ok: correct(what, want, a?.value),
      confidence: a?.confidence ?? 0,
      given: a !== undefined,
      expected: want,
      found: a?.value,
    });
  }
  return out;
}

/** Accuracy per field (over all labelled documents: a missing value is wrong). */
export function accuracy(outcomes: Outcome[], field: Outcome['field']): { n: number; right: number; rate: number } {
  const xs = outcomes.filter((o) => o.field === field);
  const right = xs.filter((o) => o.ok).length;
  return { n: xs.length, right, rate: xs.length ? right / xs.length : 0 };
}

/**
 * Calibration of the confidences given: 10 equal-width bins, the expected calibration error
 * (weighted mean |accuracy - confidence|) and the bins that hold values.
 */
export function calibration(outcomes: Outcome[]): {
  ece: number;
  n: number;
  bins: Array<{ range: string; n: number; confidence: number; accuracy: number }>;
} {
  const given = outcomes.filter((o) => o.given);
  const bins = Array.from({ length: 10 }, (_, i) => ({ lo: i / 10, hi: (i + 1) / 10, xs: [] as Outcome[] }));
  for (const o of given) bins[Math.min(9, Math.floor(o.confidence * 10))].xs.push(o);
  let ece = 0;
  const rows = [];
  for (const b of bins) {
    if (b.xs.length === 0) continue;
    const conf = b.xs.reduce((s, o) => s + o.confidence, 0) / b.xs.length;
    const acc = b.xs.filter((o) => o.ok).length / b.xs.length;
    ece += (b.xs.length / given.length) * Math.abs(acc - conf);
    rows.push({ range: `${b.lo.toFixed(1)}-${b.hi.toFixed(1)}`, n: b.xs.length, confidence: conf, accuracy: acc });
  }
  return { ece: given.length ? ece : 0, n: given.length, bins: rows };
}
