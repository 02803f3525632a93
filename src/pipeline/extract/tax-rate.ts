/**
 * A total found by the tax its issuer charges (docpipe's addition to learned templates).
 *
 * Receipts read by OCR do not keep their layout: one receipt of an issuer prints "TOTAL … 44.73"
 * on one line, the next one lists its labels in a block and its figures in another, in an order
 * no label-anchored pattern learned from the first can follow. What stays the same across an
 * issuer's documents is its tax rate: the total is a net amount plus that rate of tax, and both
 * figures are printed. A learned template records the rate it saw on the confirmed document
 * (`tax_rate` on the field); when the field's pattern finds nothing on a later document, the
 * figure that is the sum of two printed figures, net and tax at that rate, is the value.
 */
import { findAmounts, roundMoney } from './amounts.js';

/** Money figures of a text (with cents, so counts, dates, times and ids are left out). */
function figures(text: string, decimal?: ',' | '.'): number[] {
  return findAmounts(text, decimal ? { decimalSeparator: decimal, spaceGroups: false } : { spaceGroups: false })
    .filter((a) => /\d?[.,]\d{2}(?!\d)/.test(a.raw) && a.value > 0 && a.value < 10_000_000)
    .map((a) => roundMoney(a.value));
}

/** Tax is rounded to cents, sometimes per line and then summed: a cent of slack either way. */
const TAX_SLACK = 0.0105;
const near = (a: number, b: number): boolean => Math.abs(a - b) < 0.006;

/** Pairs (net, tax) of printed figures that add up to `total`, the tax the smaller and at most 30% of the net. */
function splits(total: number, printed: readonly number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const distinct = [...new Set(printed)];
  for (const net of distinct) {
    if (net >= total) continue;
    const tax = roundMoney(total - net);
    if (tax <= 0 || tax > net * 0.3 || !distinct.some((d) => near(d, tax))) continue;
    out.push([net, tax]);
  }
  return out;
}

/**
 * The tax rate (to a tenth of a percent) that `total` shows on this document: one printed figure
 * is the net amount, another its tax at that rate, and they add up to the total. Null when no
 * pair does, or when pairs disagree on the rate (nothing stable to learn).
 */
export function learnTaxRate(text: string, total: number, decimal?: ',' | '.'): number | null {
  const rates = new Set<number>();
  for (const [net, tax] of splits(roundMoney(total), figures(text, decimal))) {
    const rate = Math.round((tax / net) * 1000) / 1000;
    if (rate > 0 && Math.abs(tax - net * rate) <= TAX_SLACK) rates.add(rate);
  }
  return rates.size === 1 ? [...rates][0] : null;
}

/**
 * The printed figure that is a printed net amount plus its tax at `rate` (also printed). When
 * several are, the one printed most often, then the largest (a total is repeated: total, paid,
 * tax summary). Null when none is.
 */
export function figureByTaxRate(text: string, rate: number, decimal?: ',' | '.'): number | null {
  const printed = figures(text, decimal);
  const counts = new Map<number, number>();
  for (const f of printed) counts.set(f, (counts.get(f) ?? 0) + 1);
  const fits = [...counts.keys()].filter((total) =>
    splits(total, printed).some(([net, tax]) => Math.abs(tax - net * rate) <= TAX_SLACK),
  );
  fits.sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || b - a);
  return fits[0] ?? null;
}
