// Template-free extraction on the shared development corpus, in process (the quality benchmark
// measures the same through the API): SROIE receipts and invoice2data's golden invoices, read in
// place. Skips, saying so, when the corpus is not beside the repository (or in DOCPIPE_CORPORA).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../../src/pipeline/extract/index.js';
import { accuracy, calibration, loadGoldenInvoices, loadSroie, score } from '../../helpers/extraction-dev.js';
import { corporaDir } from '../../helpers/invoice2data-golden.js';

const DEV = resolve(corporaDir(), 'dev');
const present = existsSync(resolve(DEV, 'sroie'));
if (!present) console.warn(`extract/dev-corpus: skipped, ${DEV} is not present`);

describe.skipIf(!present)('template-free extraction on the development corpus', () => {
  it('reads SROIE receipts: total and date', () => {
    const out = loadSroie(DEV).flatMap((d) => score(d, extractFields({ text: d.text, type: 'receipt' }).fields));
    // Measured on the 100 dev receipts: total 96 %, date 100 %, company 89 %.
    expect(accuracy(out, 'total').rate).toBeGreaterThanOrEqual(0.92);
    expect(accuracy(out, 'date').rate).toBeGreaterThanOrEqual(0.98);
    expect(accuracy(out, 'vendor').rate).toBeGreaterThanOrEqual(0.8);
    expect(calibration(out).ece).toBeLessThan(0.15);
  });

  it("reads invoice2data's tests/custom invoices without their templates", () => {
    const docs = loadGoldenInvoices(DEV).filter((d) => d.name.startsWith('custom/'));
    const out = docs.flatMap((d) => score(d, extractFields({ text: d.text, type: 'invoice' }).fields)).filter((o) => o.field !== 'vendor');
    expect(out.filter((o) => !o.ok)).toEqual([]);
  });
});
