// Ordering of calibrated template-free confidences on texts written here: more evidence never
// gives less confidence. The calibration itself is measured on real documents in
// dev-corpus.test.ts and by `npm run bench -- quality-calibration`.
import { describe, expect, it } from 'vitest';
import { MODELS, predict } from '../../../src/pipeline/extract/confidence.js';
import { evidenceOf } from '../../../src/pipeline/extract/evidence.js';
import { extractGeneric } from '../../../src/pipeline/extract/index.js';
import { fitLogistic } from '../../helpers/extraction-calibration.js';

const receipt = (lines: string[]) => extractGeneric(lines.join('\n'), 'receipt');

describe('calibrated confidence of template-free fields', () => {
  it('gives an arithmetic-confirmed total more confidence than the same total unconfirmed', () => {
    const confirmed = receipt([
      'KEDAI MAJU SDN BHD',
      'BREAD 4.00',
      'MILK 6.00',
      'SUBTOTAL 10.00',
      'GST 6% 0.60',
      'TOTAL 10.60',
    ]);
    const unconfirmed = receipt(['KEDAI MAJU SDN BHD', 'BREAD 4.00', 'MILK 6.00', 'TOTAL 10.60']);
    expect(confirmed.total.value).toBe(10.6);
    expect(unconfirmed.total.value).toBe(10.6);
    expect(evidenceOf(confirmed.total)?.features.arith).toBe(2);
    expect(confirmed.total.confidence).toBeGreaterThan(unconfirmed.total.confidence);
  });

  it('gives a total by an unmistakable label more confidence than one found by size alone', () => {
    const labelled = receipt(['SHOP', 'ITEM 3.00', 'ITEM 4.00', 'GRAND TOTAL 7.00']);
    const bare = receipt(['SHOP', 'ITEM 3.00', 'ITEM 4.00', '7.00']);
    expect(labelled.total.value).toBe(7);
    expect(bare.total?.value).toBe(7);
    expect(labelled.total.confidence).toBeGreaterThan(bare.total.confidence);
    expect(labelled.total.method).toBe('label');
  });

  it('never lets a reference number outrank a labelled date', () => {
    const text =
      'Cobalt Cloud Services, Inc.\nInvoice\nReference: 2031-05-23\nInvoice date: 2024-05-23\nTotal due: $10.00';
    const labelled = extractGeneric(text, 'invoice');
    expect(labelled.issue_date.value).toBe('2024-05-23');
    // The same document with only an unlabelled date: a guess, given less confidence.
    const guessed = extractGeneric(
      'Cobalt Cloud Services, Inc.\nInvoice\nShipped 2024-05-23\nTotal due: $10.00',
      'invoice',
    );
    expect(guessed.issue_date.value).toBe('2024-05-23');
    expect(labelled.issue_date.confidence).toBeGreaterThan(guessed.issue_date.confidence);
  });

  it('gives a labelled invoice number more confidence than a pattern guess', () => {
    const labelled = extractGeneric('Invoice No: X-1001\nInvoice Date: 2024-01-02', 'invoice');
    const guessed = extractGeneric('Reference INV-1001\nSomething on 2024-01-02', 'invoice');
    expect(labelled.invoice_number.confidence).toBeGreaterThan(guessed.invoice_number.confidence);
  });

  it('trusts a letterhead company more than a company named far down the header', () => {
    const top = receipt(['SANYU SUPPLY SDN BHD', 'NO. 12 JALAN 3', 'TOTAL 5.00']);
    const low = receipt([
      'THANK YOU',
      'WELCOME',
      'OPEN DAILY',
      'NO. 12 JALAN 3',
      'TEL 03-1234',
      'SANYU SUPPLY SDN BHD',
      'TOTAL 5.00',
    ]);
    expect(top.merchant.value).toBe('SANYU SUPPLY SDN BHD');
    expect(low.merchant.value).toBe('SANYU SUPPLY SDN BHD');
    expect(top.merchant.confidence).toBeGreaterThan(low.merchant.confidence);
  });

  it('keeps the field shape: value, confidence in [0, 1] and method, nothing more', () => {
    const f = receipt(['KEDAI MAJU SDN BHD', '12/03/2018', 'SUBTOTAL 10.00', 'GST 0.60', 'TOTAL 10.60']);
    for (const name of ['total', 'date', 'merchant']) {
      expect(Object.keys(f[name]).sort()).toEqual(['confidence', 'method', 'value']);
      expect(f[name].confidence).toBeGreaterThan(0);
      expect(f[name].confidence).toBeLessThan(1);
    }
  });

  it('leaves types it was not fitted on with their extractors’ estimates', () => {
    const other = extractGeneric('Note\nTotal: 10.00 EUR', 'other');
    expect(other.total).toBeDefined();
    expect(evidenceOf(other.total)?.features.prior).toBeUndefined();
  });

  it('has committed weights whose signs say more evidence, more confidence', () => {
    const [, label, arith, margin] = MODELS.total.weights!;
    expect([label, arith, margin].every((w) => w > 0)).toBe(true);
    const [, prior, low] = MODELS.party.weights!;
    expect(prior).toBeGreaterThan(0);
    expect(low).toBeLessThan(0);
    const base = { kind: 'total' as const, source: 'candidates', features: { label: 2, arith: 0, margin: 1 } };
    const more = { ...base, features: { ...base.features, label: 3, arith: 2, margin: 5 } };
    expect(predict(more)!).toBeGreaterThan(predict(base)!);
  });

  it('fits a logistic map that recovers a known relation and stays finite when every value is right', () => {
    // y is right with probability sigmoid(-1 + 2x) on a grid of x.
    const xs: number[][] = [];
    const ys: number[] = [];
    for (let i = 0; i <= 20; i++) {
      const x = i / 10;
      const p = 1 / (1 + Math.exp(-(-1 + 2 * x)));
      for (let k = 0; k < 100; k++) {
        xs.push([x]);
        ys.push(k < Math.round(p * 100) ? 1 : 0);
      }
    }
    const [b, w] = fitLogistic(xs, ys, 0.01, [0]);
    expect(b).toBeCloseTo(-1, 1);
    expect(w).toBeCloseTo(2, 1);
    const always = fitLogistic([[0], [0], [0], [0], [0], [0], [0]], [1, 1, 1, 1, 1, 1, 1], 1, [0]);
    // Seven right out of seven plus one right and one wrong pseudo-observation: 8/9.
    expect(1 / (1 + Math.exp(-always[0]))).toBeCloseTo(8 / 9, 3);
  });
});
